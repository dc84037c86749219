-- Provably fair dice (issue 13): a game's commitment, client seed and server seed, as JSON
-- {"commitment": sha256 hex, "client_seed": text or null until the game starts, "seed": hex}.
-- The seed is read only to draw dice and, once the game is over, to reveal and verify it; nothing shows it before.
ALTER TABLE games ADD COLUMN fair TEXT;
