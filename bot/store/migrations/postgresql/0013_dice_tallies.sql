-- Dice statistics (issue 27, bot.store.dice_stats): each finished game's dice counted once, per seat, so /dicestats
-- sums a few rows per game instead of reading every move's dice JSON. seat is the seat's number in games.seats
-- (-1: the row every tallied game has, with the dice that were no one seat's); no member's id is kept here.
-- n1..n6: how many six-sided dice showed each face; trials, hits, expected: the game's luck figure (docs/FAIRNESS.md,
-- "Dice statistics"): the rolls that could show it, how many did, and how many fair dice would on average.
CREATE TABLE dice_tallies (
    game_id     BIGINT           NOT NULL,
    seat        INTEGER          NOT NULL,
    guild_id    BIGINT           NOT NULL,
    game        TEXT             NOT NULL,
    finished_at DOUBLE PRECISION NOT NULL,
    n1          INTEGER          NOT NULL DEFAULT 0,
    n2          INTEGER          NOT NULL DEFAULT 0,
    n3          INTEGER          NOT NULL DEFAULT 0,
    n4          INTEGER          NOT NULL DEFAULT 0,
    n5          INTEGER          NOT NULL DEFAULT 0,
    n6          INTEGER          NOT NULL DEFAULT 0,
    trials      INTEGER          NOT NULL DEFAULT 0,
    hits        INTEGER          NOT NULL DEFAULT 0,
    expected    DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX dice_tallies_board ON dice_tallies (guild_id, game, finished_at);
