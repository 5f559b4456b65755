-- One uplink log for every device kind: `uplinks` becomes a table partitioned by LIST (device_kind)
-- whose partitions are the two day-partitioned logs as they were, attached without copying a row:
-- the lock log (the old `uplinks`, renamed `lock_uplinks` with its day partitions) and the air switch
-- log (`air_switch_uplinks`). Each kind keeps its day partitions, its indexes and its retention
-- (UPLINK_RETENTION_DAYS, TELEMETRY_RETENTION_DAYS: whole days dropped per subtree, docs/partitions.md).
-- Both get the columns of the other (null) and device_kind; ids come from one sequence from now on,
-- set past both logs' ids, so every kind's ids keep rising. Attaching checks each row's kind once.
ALTER TABLE "uplinks" RENAME TO "lock_uplinks";--> statement-breakpoint
DO $$
DECLARE
  part record;
BEGIN
  FOR part IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'lock_uplinks'::regclass LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', part.relname, 'lock_' || part.relname);
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE "lock_uplinks" ADD COLUMN "device_kind" text DEFAULT 'lock' NOT NULL;--> statement-breakpoint
ALTER TABLE "lock_uplinks" ADD COLUMN "air_switch_id" integer;--> statement-breakpoint
ALTER TABLE "air_switch_uplinks" ADD COLUMN "device_kind" text DEFAULT 'airSwitch' NOT NULL;--> statement-breakpoint
ALTER TABLE "air_switch_uplinks" ADD COLUMN "lock_id" integer;--> statement-breakpoint
ALTER TABLE "air_switch_uplinks" ADD COLUMN "msg_id" text;--> statement-breakpoint
SELECT setval('uplinks_id_seq', greatest(
  (SELECT last_value FROM "uplinks_id_seq"), (SELECT last_value FROM "air_switch_uplinks_id_seq"),
  (SELECT coalesce(max("id"), 1) FROM "lock_uplinks"), (SELECT coalesce(max("id"), 1) FROM "air_switch_uplinks")));--> statement-breakpoint
DROP SEQUENCE "air_switch_uplinks_id_seq" CASCADE;--> statement-breakpoint
ALTER TABLE "air_switch_uplinks" ALTER COLUMN "id" SET DEFAULT nextval('uplinks_id_seq'::regclass);--> statement-breakpoint
CREATE TABLE "uplinks" (
	"id" bigint DEFAULT nextval('uplinks_id_seq'::regclass) NOT NULL,
	"tenant_id" integer NOT NULL,
	"device_kind" text NOT NULL,
	"lock_id" integer,
	"air_switch_id" integer,
	"seq" integer NOT NULL,
	"msg_id" text,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"device_ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
) PARTITION BY LIST ("device_kind");--> statement-breakpoint
ALTER SEQUENCE "uplinks_id_seq" OWNED BY "uplinks"."id";--> statement-breakpoint
ALTER TABLE "uplinks" ATTACH PARTITION "lock_uplinks" FOR VALUES IN ('lock');--> statement-breakpoint
ALTER TABLE "uplinks" ATTACH PARTITION "air_switch_uplinks" FOR VALUES IN ('airSwitch');--> statement-breakpoint
ALTER TABLE "uplinks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "uplinks" USING (tenant_id = (SELECT app_tenant_id())) WITH CHECK (tenant_id = (SELECT app_tenant_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "uplinks" TO iot_app;
