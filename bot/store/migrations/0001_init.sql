-- Games: lobbies, running games and finished ones. state is the engine's JSON.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    host_id     INTEGER NOT NULL,
    options     TEXT    NOT NULL,
    seats       TEXT    NOT NULL,           -- JSON list of {"id", "name", "level"}
    state       TEXT,                        -- engine JSON while running / finished
    version     INTEGER NOT NULL DEFAULT 0,  -- actions applied; guards deadlines
    message_id  INTEGER,                     -- the table message in the channel
    meta        TEXT    NOT NULL DEFAULT '{}', -- timeouts per seat, public log, locale
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
-- One open table per channel.
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX games_status ON games (status);

-- Every applied action; interaction_id makes a repeated click apply once.
CREATE TABLE actions (
    game_id        INTEGER NOT NULL REFERENCES games (id),
    seq            INTEGER NOT NULL,
    seat           INTEGER,
    action         TEXT    NOT NULL,
    interaction_id TEXT,
    at             REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX actions_interaction ON actions (game_id, interaction_id) WHERE interaction_id IS NOT NULL;

-- Turn deadlines (and lobby expiry); one per game, re-armed at start-up.
CREATE TABLE deadlines (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    due     REAL    NOT NULL,
    version INTEGER NOT NULL
);
CREATE INDEX deadlines_due ON deadlines (due);

-- One row per seat of a finished game; leaderboards and stats read these.
CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    is_bot      INTEGER NOT NULL DEFAULT 0,
    place       INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    won         INTEGER NOT NULL,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX results_board ON results (guild_id, game, user_id);

CREATE TABLE guild_settings (
    guild_id INTEGER NOT NULL,
    key      TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, key)
) WITHOUT ROWID;

CREATE TABLE users (
    user_id    INTEGER PRIMARY KEY,
    dms_closed INTEGER NOT NULL DEFAULT 0
);
