-- Tournaments (issue 28, bot.store.tournaments, bot.tables.tournaments): a tournament, its entrants and each round's
-- tables. Pairings are stored as they are made (before any table opens), and each table's game id as it opens, so a
-- restart neither opens a table twice nor loses one; a table's outcome is read from its game's results.
-- status: signup -> running -> finished | cancelled; paused: the host's pause (no new round opens).
CREATE TABLE tournaments (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id    INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    plan       TEXT    NOT NULL,
    status     TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    paused     INTEGER NOT NULL DEFAULT 0,
    message_id INTEGER,
    locale     TEXT    NOT NULL DEFAULT 'en',
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL
);
-- One open tournament per channel.
CREATE UNIQUE INDEX tournaments_one_open_per_channel ON tournaments (channel_id) WHERE status IN ('signup', 'running');
-- name: as the member was shown when they joined (privacy deletion replaces it); rating: the seed's ordinal.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    rating        REAL    NOT NULL,
    joined        REAL    NOT NULL,
    withdrawn     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;
-- A round: its byes (JSON list of user ids) and whether its announcement went out.
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    byes          TEXT    NOT NULL DEFAULT '[]',
    announced     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round)
) WITHOUT ROWID;
-- A table of a round: players (JSON list in seat order), the game it became (NULL until opened), the channel it
-- plays in, and an outcome set by the tournament itself (JSON, a no-contest) instead of the game's results.
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    players       TEXT    NOT NULL,
    game_id       INTEGER,
    channel_id    INTEGER,
    outcome       TEXT,
    PRIMARY KEY (tournament_id, round, number)
) WITHOUT ROWID;
CREATE INDEX tournament_tables_game ON tournament_tables (game_id);
