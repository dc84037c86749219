-- The action log's hash chain (issue 27, bot.games.chain): each action's link, the SHA-256 of the link before it
-- and the action. NULL for actions logged before it (their games keep verifying as before, without a chain).
ALTER TABLE actions ADD COLUMN link TEXT;
