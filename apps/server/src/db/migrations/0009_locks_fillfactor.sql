-- Every ingest batch updates each reporting lock's row (readings, last_uplink_at, last_seq); none of
-- those columns is indexed, so with free room on the page PostgreSQL updates the row in place (HOT)
-- instead of touching every index of locks. Fill lock pages to 70 % to leave that room.
ALTER TABLE locks SET (fillfactor = 70);
