-- Skill ratings (issue 15): openskill Plackett-Luce, one rating per player per game per server per season.
-- Members have their Discord id; computer players one rating per level: -1 easy, -2 normal, -3 hard.

-- A server's seasons. Number 0 is the one every server starts in (name NULL: shown from the catalog; its row is
-- written when the first named season starts); `/settings season start name:` closes the current one (ended_at)
-- and opens number + 1. Names are unique per server whatever their case ("Spring" and "spring" would be ambiguous).
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL,
    name       TEXT,
    started_at REAL    NOT NULL,
    ended_at   REAL,
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;
CREATE UNIQUE INDEX seasons_name ON seasons (guild_id, name COLLATE NOCASE);

-- The current rating; the board orders by ordinal (mu - 3 sigma), kept beside mu and sigma for the index.
-- game is an engine id, or 'all': one more rating over every game together (the board without a game).
-- neutral and best_score complete the record the board shows beside the rating (wins, losses, neutral, best).
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    ordinal     REAL    NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    neutral     INTEGER NOT NULL DEFAULT 0,
    best_score  INTEGER,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, season, game, ordinal);

-- Each rated game's rating after it, for the /stats chart: a row for the game's own rating and one for 'all'.
CREATE TABLE rating_history (
    game_id  INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    season   INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    mu       REAL    NOT NULL,
    sigma    REAL    NOT NULL,
    ordinal  REAL    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id, game)
) WITHOUT ROWID;
CREATE INDEX rating_history_player ON rating_history (guild_id, user_id, game, at);

-- `/privacy optout`: kept off every leaderboard (1), still rated so opting back in shows a true rating.
ALTER TABLE users ADD COLUMN opted_out INTEGER NOT NULL DEFAULT 0;
