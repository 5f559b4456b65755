-- The heartbeat log becomes a table partitioned by day of received_at (docs/partitions.md): retention
-- drops a whole day instead of deleting millions of rows, and each day's indexes stay small. Daily
-- because heartbeats are the largest log (about 170 a second at 50,000 locks: some 15 million rows,
-- a few GB with indexes, a day), so a day is a partition that one drop removes at once and that a
-- 90-day retention keeps to about 90 partitions; monthly ones would hold 450 million rows each.
-- Days are UTC days. The conversion copies every row with its id; the id sequence is kept.

-- Partition helpers, used here and by the app's partition job (db/partitions.ts).
-- Copies the parent's row-level security onto a partition: reading the partition directly (as the
-- request role could) is confined as reading through the parent is.
CREATE OR REPLACE FUNCTION app_copy_row_security(parent regclass, part regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  p record;
BEGIN
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', part);
  FOR p IN SELECT pol.polname AS name, pol.polpermissive AS permissive,
      CASE pol.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE' WHEN 'd' THEN 'DELETE' ELSE 'ALL' END AS cmd,
      pg_get_expr(pol.polqual, pol.polrelid) AS qual, pg_get_expr(pol.polwithcheck, pol.polrelid) AS with_check,
      CASE WHEN pol.polroles = '{0}' THEN 'PUBLIC'
        ELSE (SELECT string_agg(quote_ident(r.rolname), ', ') FROM pg_roles r WHERE r.oid = ANY (pol.polroles)) END AS roles
    FROM pg_policy pol WHERE pol.polrelid = parent
  LOOP
    CONTINUE WHEN EXISTS (SELECT 1 FROM pg_policy q WHERE q.polrelid = part AND q.polname = p.name);
    EXECUTE format('CREATE POLICY %I ON %s AS %s FOR %s TO %s%s%s', p.name, part,
      CASE WHEN p.permissive THEN 'PERMISSIVE' ELSE 'RESTRICTIVE' END, p.cmd, p.roles,
      CASE WHEN p.qual IS NULL THEN '' ELSE format(' USING (%s)', p.qual) END,
      CASE WHEN p.with_check IS NULL THEN '' ELSE format(' WITH CHECK (%s)', p.with_check) END);
  END LOOP;
END $$;
--> statement-breakpoint
-- Makes sure the daily partitions <parent>_pYYYYMMDD of the UTC days first_day..last_day exist; returns
-- how many it created. Rows of such a day already in <parent>_default (they arrived before their
-- partition) move into the new partition, so nothing is lost and the default stays small. A partition
-- is built apart and attached: ATTACH takes a lighter lock on the parent than CREATE ... PARTITION OF.
CREATE OR REPLACE FUNCTION app_ensure_daily_partitions(parent regclass, key_column text, first_day date, last_day date) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  day date;
  name text;
  lo timestamptz;
  hi timestamptz;
  made integer := 0;
  base text := (SELECT c.relname FROM pg_class c WHERE c.oid = parent);
BEGIN
  FOR day IN SELECT generate_series(first_day, last_day, interval '1 day')::date LOOP
    name := format('%s_p%s', base, to_char(day, 'YYYYMMDD'));
    CONTINUE WHEN to_regclass(quote_ident(name)) IS NOT NULL;
    lo := (to_char(day, 'YYYY-MM-DD') || ' 00:00:00+00')::timestamptz;
    hi := lo + interval '1 day';
    EXECUTE format('CREATE TABLE %I (LIKE %s INCLUDING DEFAULTS)', name, parent);
    IF to_regclass(quote_ident(base || '_default')) IS NOT NULL THEN
      EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
        base || '_default', key_column, key_column, name) USING lo, hi;
    END IF;
    EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, lo, hi);
    PERFORM app_copy_row_security(parent, quote_ident(name)::regclass);
    made := made + 1;
  END LOOP;
  RETURN made;
END $$;
--> statement-breakpoint
ALTER TABLE "heartbeats" RENAME TO "heartbeats_unpartitioned";
--> statement-breakpoint
ALTER TABLE "heartbeats_unpartitioned" RENAME CONSTRAINT "heartbeats_pkey" TO "heartbeats_unpartitioned_pkey";
--> statement-breakpoint
ALTER INDEX "heartbeats_lock_seq" RENAME TO "heartbeats_unpartitioned_lock_seq";
--> statement-breakpoint
ALTER INDEX "heartbeats_lock_time" RENAME TO "heartbeats_unpartitioned_lock_time";
--> statement-breakpoint
ALTER INDEX "heartbeats_time_brin" RENAME TO "heartbeats_unpartitioned_time_brin";
--> statement-breakpoint
CREATE TABLE "heartbeats" (
	"id" bigint DEFAULT nextval('heartbeats_id_seq'::regclass) NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"battery" integer NOT NULL,
	"rssi" integer NOT NULL,
	"snr" real NOT NULL,
	"firmware_version" text NOT NULL,
	"device_ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "heartbeats_id_received_at_pk" PRIMARY KEY("id","received_at")
) PARTITION BY RANGE ("received_at");
--> statement-breakpoint
-- The sequence belongs to the new table, so dropping the old one keeps it (and the ids go on).
ALTER SEQUENCE "heartbeats_id_seq" OWNED BY "heartbeats"."id";
--> statement-breakpoint
CREATE INDEX "heartbeats_lock_seq" ON "heartbeats" USING btree ("lock_id","seq");
--> statement-breakpoint
CREATE INDEX "heartbeats_lock_time" ON "heartbeats" USING btree ("lock_id","received_at");
--> statement-breakpoint
CREATE INDEX "heartbeats_time_brin" ON "heartbeats" USING brin ("received_at");
--> statement-breakpoint
ALTER TABLE "heartbeats" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "heartbeats" USING (tenant_id = (SELECT app_tenant_id())) WITH CHECK (tenant_id = (SELECT app_tenant_id()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "heartbeats" TO iot_app;
--> statement-breakpoint
CREATE TABLE "heartbeats_default" PARTITION OF "heartbeats" DEFAULT;
--> statement-breakpoint
SELECT app_copy_row_security('heartbeats', 'heartbeats_default');
--> statement-breakpoint
-- A partition per UTC day from the oldest row's to a week ahead (the partition job keeps a week ahead).
SELECT app_ensure_daily_partitions('heartbeats', 'received_at',
  least((SELECT min(received_at) FROM heartbeats_unpartitioned) AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')::date,
  (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
INSERT INTO "heartbeats" ("id", "tenant_id", "lock_id", "seq", "battery", "rssi", "snr", "firmware_version", "device_ts", "received_at")
SELECT "id", "tenant_id", "lock_id", "seq", "battery", "rssi", "snr", "firmware_version", "device_ts", "received_at" FROM "heartbeats_unpartitioned";
--> statement-breakpoint
DROP TABLE "heartbeats_unpartitioned";
