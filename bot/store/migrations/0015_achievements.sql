-- Achievements (issue 28, bot.achievements, bot.store.achievements): what each member earned on each server, with
-- the finished game that first earned it (for an across-games one: the game that reached it) and that game's finish
-- time; and which finished games were evaluated, so the backfill (at start, over games finished before this table
-- or while a process without it ran) skips them. Both are computed from the action log and the results only.
CREATE TABLE achievements (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    achievement TEXT    NOT NULL,
    game_id     INTEGER NOT NULL,
    at          REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, achievement)
) WITHOUT ROWID;
CREATE INDEX achievements_game ON achievements (game_id);
CREATE INDEX achievements_user ON achievements (user_id);
-- No member's id here: a game id and when it was evaluated.
CREATE TABLE achievement_games (
    game_id INTEGER NOT NULL PRIMARY KEY,
    at      REAL    NOT NULL
) WITHOUT ROWID;
