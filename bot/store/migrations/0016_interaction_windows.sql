-- Tables that live on an interaction's message (issue 29: a group DM, a server that never added the bot, where the
-- app can only answer interactions): the latest interaction whose token edits the table message, and when its
-- window ends (Discord's 15 minutes). A row marks the table as such for good; a restart reads it back, so the
-- table goes on being edited through the token while it is valid (bot.store.windows, cogs.utils.interaction_transport).
CREATE TABLE interaction_windows (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    token   TEXT    NOT NULL,
    until   REAL    NOT NULL
);
