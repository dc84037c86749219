-- One-off upgrades of the data itself (issue 23), each recorded here once done: ``bot.tables.upgrade`` converts
-- the rows older code wrote to today's format before the first restore, so start-up reads one format.
CREATE TABLE data_upgrades (
    name    TEXT             PRIMARY KEY,
    done_at DOUBLE PRECISION NOT NULL   -- Unix seconds
);
