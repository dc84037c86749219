-- Leases on shards (issue 16, bot.store.leases): which process serves each shard, until when, and a fencing token
-- that grows at every takeover; every write batch of a fenced store checks its rows first (FOR SHARE). A released
-- lease keeps its token (owner '' and expires_at 0), so the next holder's token is higher still.
CREATE TABLE leases (
    shard       INTEGER          PRIMARY KEY,
    shard_count INTEGER          NOT NULL,
    owner       TEXT             NOT NULL DEFAULT '',
    host        TEXT             NOT NULL DEFAULT '',
    pid         INTEGER          NOT NULL DEFAULT 0,
    token       BIGINT           NOT NULL DEFAULT 0,
    expires_at  DOUBLE PRECISION NOT NULL DEFAULT 0   -- Unix seconds, by the holder's clock
);
