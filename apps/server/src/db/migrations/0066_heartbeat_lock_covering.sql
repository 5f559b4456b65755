-- A lock's heartbeat page, count and chart at 100 million rows (bench/heartbeats-100m.ts,
-- bench/RESULTS.md): every one of a page's rows was a random read of its day partition, and at 10
-- connections a lock's page and its 7-day chart missed their 50 ms p99. The (lock_id, received_at) index
-- now also holds the id (the page's tie-break order), tenant_id (row-level security) and the columns
-- the page and chart show, so they read the index alone (index-only scans, ~3x fewer buffers). The
-- index about doubles (as large as its table) and an insert takes ~18 % longer. On a large existing
-- log it is built in the migration's transaction (about 3 minutes per 100 million rows on 2 cores).
DROP INDEX "heartbeats_lock_time";--> statement-breakpoint
CREATE INDEX "heartbeats_lock_time" ON "heartbeats" USING btree ("lock_id","received_at","id","tenant_id","battery","rssi","snr","seq","device_ts","firmware_version");