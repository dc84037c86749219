-- Each result says how the seat ended: a win, a loss, or neutral (neither, e.g. Liar's Dice single
-- round, rule D-L7: only the challenger and the bidder win or lose). `won` stays for old readers.
ALTER TABLE results ADD COLUMN result TEXT NOT NULL DEFAULT 'loss' CHECK (result IN ('win', 'loss', 'neutral'));
UPDATE results SET result = 'win' WHERE won = 1;
-- Single-round Liar's Dice recorded the uninvolved seats with score 0 (the loser has -1): neutral.
UPDATE results SET result = 'neutral'
 WHERE game = 'liar' AND won = 0 AND score = 0
   AND game_id IN (SELECT id FROM games WHERE json_extract(options, '$.mode') = 'single');
