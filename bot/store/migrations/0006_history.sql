-- /history (issue 13): a server's finished games newest first, paged, read without scanning other servers' games.
CREATE INDEX games_history ON games (guild_id, updated_at) WHERE status = 'finished';
