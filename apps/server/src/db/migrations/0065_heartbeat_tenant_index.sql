-- Heartbeat reads at 100 million rows (bench/heartbeats-100m.ts, bench/RESULTS.md): no index began with
-- tenant_id, so a data centre's first page counted its rows by reading day partitions from the oldest
-- (1.27 s); with (tenant_id, id) the page and its capped count read one index. Row-level security adds
-- tenant_id to every query, and (lock_id, received_at) did not hold it, so a lock's count fetched each of
-- its rows from the table: tenant_id joins that index as its last column (the app's lock queries keep
-- their order). On a large existing log both indexes are built in the migration's transaction.
DROP INDEX "heartbeats_lock_time";--> statement-breakpoint
CREATE INDEX "heartbeats_tenant_id" ON "heartbeats" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE INDEX "heartbeats_lock_time" ON "heartbeats" USING btree ("lock_id","received_at","tenant_id");