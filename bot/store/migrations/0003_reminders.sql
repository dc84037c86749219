-- Turn reminders: the one reminder message a table may have in its channel, kept so that a restart can
-- still delete it when the player acts. `version` is the table version (the turn) it reminds about.
CREATE TABLE reminders (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    version    INTEGER NOT NULL
);

-- When a user was marked "DMs closed": the mark expires, so a player who reopened their DMs gets them again.
-- Marks from before this column count as expired (NULL).
ALTER TABLE users ADD COLUMN dms_closed_at REAL;
