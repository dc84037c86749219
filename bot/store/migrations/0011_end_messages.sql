-- The end-of-game messages still owed (issue 26): a row is written in the same transaction that finishes the game
-- and deleted once Discord took the message, so a restart in between still sends it (bot.tables.restore.owed_ends).
CREATE TABLE end_messages (
    game_id INTEGER PRIMARY KEY REFERENCES games (id)
);
