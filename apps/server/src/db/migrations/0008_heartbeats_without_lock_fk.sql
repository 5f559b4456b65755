-- Ingest hot path (issue #3, bench/ingest.ts): the per-row foreign-key check of heartbeats.lock_id cost
-- about a quarter of every heartbeat batch. See the heartbeats table comment in schema-device.ts.
ALTER TABLE "heartbeats" DROP CONSTRAINT "heartbeats_lock_id_locks_id_fk";