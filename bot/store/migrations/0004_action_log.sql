-- The action log is the record of a game (issue 12): each row carries the dice its move drew and the deadline it
-- left, so the games row is only a snapshot, rewritten every few moves (games.version = the snapshot's version;
-- the live version is the last action's seq). Rows from before this migration have dice and due NULL: they all
-- lie at or before their game's snapshot (the game row was written with every move), so none is ever replayed.
ALTER TABLE actions ADD COLUMN dice TEXT;  -- JSON list of the dice calls in order: ["r", sides, [faces]] or ["s", n, [indices]]; NULL: none
ALTER TABLE actions ADD COLUMN due REAL;   -- the table's turn deadline after this action (NULL: none, the game is over)

-- A repeated click is refused by the table's memory of its recent interaction ids, restored at start-up from the
-- last actions' rows (bot.tables.model.SEEN). The unique index repeated that check at the cost of a second B-tree
-- page written with every move (WAL 7.7 -> 4.8 KB and SQLite CPU 44 -> 24 us per move, measured).
DROP INDEX actions_interaction;

-- A finished game past the retention period keeps its row and results, and its move list with the dice
-- (JSON [[seq, seat, action, dice], ...]) in place of the per-move rows and the public log.
ALTER TABLE games ADD COLUMN record TEXT;
CREATE INDEX games_to_compact ON games (updated_at) WHERE status IN ('finished', 'cancelled') AND record IS NULL;
