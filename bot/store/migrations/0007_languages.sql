-- Languages (issue 14): a member's own language for private replies and DMs (`/me language`; NULL: follow their
-- Discord client), and the Discord locale last seen on one of their interactions (a DM has no interaction).
-- The server's language is the guild setting `language`.
ALTER TABLE users ADD COLUMN language TEXT;
ALTER TABLE users ADD COLUMN discord_locale TEXT;
