-- The other append-only logs become tables partitioned by UTC day, as heartbeats did in 0063 (see
-- docs/partitions.md): the lock uplink log (uplinks), unlock records (open_records), the system log
-- (audit_log, by created_at) and the air switch log (air_switch_uplinks). Daily like heartbeats: the
-- partition functions of 0063 are per day, and a day is the unit a retention drops at once. Each
-- conversion copies every row with its id and keeps the id sequence. The primary key becomes
-- (id, <time>) and the unique (lock_id, seq) / (air_switch_id, seq) indexes become plain ones (a
-- unique index of a partitioned table must hold the partition key); their dedupe is the writers'
-- (logUpCommand/service.ts, airSwitch/ingest.ts). Partitions are made for the past days that hold rows
-- and for today to a week ahead, not for every empty day since the oldest row (the logs without a
-- retention may go back years); rows further ahead wait in the default partition, as in 0063.

-- uplinks, by received_at.
ALTER TABLE "uplinks" RENAME TO "uplinks_unpartitioned";
--> statement-breakpoint
ALTER TABLE "uplinks_unpartitioned" RENAME CONSTRAINT "uplinks_pkey" TO "uplinks_unpartitioned_pkey";
--> statement-breakpoint
ALTER INDEX "uplinks_lock_seq" RENAME TO "uplinks_unpartitioned_lock_seq";
--> statement-breakpoint
ALTER INDEX "uplinks_lock_time" RENAME TO "uplinks_unpartitioned_lock_time";
--> statement-breakpoint
ALTER INDEX "uplinks_tenant_time" RENAME TO "uplinks_unpartitioned_tenant_time";
--> statement-breakpoint
CREATE TABLE "uplinks" (
	"id" bigint DEFAULT nextval('uplinks_id_seq'::regclass) NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"msg_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"device_ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uplinks_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade,
	CONSTRAINT "uplinks_id_received_at_pk" PRIMARY KEY("id","received_at")
) PARTITION BY RANGE ("received_at");
--> statement-breakpoint
ALTER SEQUENCE "uplinks_id_seq" OWNED BY "uplinks"."id";
--> statement-breakpoint
CREATE INDEX "uplinks_lock_seq" ON "uplinks" USING btree ("lock_id","seq");
--> statement-breakpoint
CREATE INDEX "uplinks_lock_time" ON "uplinks" USING btree ("lock_id","received_at");
--> statement-breakpoint
CREATE INDEX "uplinks_tenant_time" ON "uplinks" USING btree ("tenant_id","received_at");
--> statement-breakpoint
ALTER TABLE "uplinks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "uplinks" USING (tenant_id = (SELECT app_tenant_id())) WITH CHECK (tenant_id = (SELECT app_tenant_id()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "uplinks" TO iot_app;
--> statement-breakpoint
CREATE TABLE "uplinks_default" PARTITION OF "uplinks" DEFAULT;
--> statement-breakpoint
SELECT app_copy_row_security('uplinks', 'uplinks_default');
--> statement-breakpoint
SELECT app_ensure_daily_partitions('uplinks', 'received_at', d.day, d.day)
FROM (SELECT DISTINCT (received_at AT TIME ZONE 'UTC')::date AS day FROM "uplinks_unpartitioned" WHERE received_at < now()) d;
--> statement-breakpoint
SELECT app_ensure_daily_partitions('uplinks', 'received_at', (now() AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
INSERT INTO "uplinks" ("id", "tenant_id", "lock_id", "seq", "msg_id", "type", "data", "device_ts", "received_at")
SELECT "id", "tenant_id", "lock_id", "seq", "msg_id", "type", "data", "device_ts", "received_at" FROM "uplinks_unpartitioned";
--> statement-breakpoint
DROP TABLE "uplinks_unpartitioned";
--> statement-breakpoint
-- open_records, by received_at.
ALTER TABLE "open_records" RENAME TO "open_records_unpartitioned";
--> statement-breakpoint
ALTER TABLE "open_records_unpartitioned" RENAME CONSTRAINT "open_records_pkey" TO "open_records_unpartitioned_pkey";
--> statement-breakpoint
ALTER INDEX "open_records_lock_time" RENAME TO "open_records_unpartitioned_lock_time";
--> statement-breakpoint
ALTER INDEX "open_records_tenant_time" RENAME TO "open_records_unpartitioned_tenant_time";
--> statement-breakpoint
CREATE TABLE "open_records" (
	"id" bigint DEFAULT nextval('open_records_id_seq'::regclass) NOT NULL,
	"tenant_id" integer NOT NULL,
	"lock_id" integer NOT NULL,
	"uplink_id" bigint,
	"method" text NOT NULL,
	"slot" integer,
	"user_slot" integer,
	"success" boolean NOT NULL,
	"lock_time" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refusal" text,
	"operator" text,
	CONSTRAINT "open_records_lock_id_locks_id_fk" FOREIGN KEY ("lock_id") REFERENCES "public"."locks"("id") ON DELETE cascade,
	CONSTRAINT "open_records_id_received_at_pk" PRIMARY KEY("id","received_at")
) PARTITION BY RANGE ("received_at");
--> statement-breakpoint
ALTER SEQUENCE "open_records_id_seq" OWNED BY "open_records"."id";
--> statement-breakpoint
CREATE INDEX "open_records_lock_time" ON "open_records" USING btree ("lock_id","received_at");
--> statement-breakpoint
CREATE INDEX "open_records_tenant_time" ON "open_records" USING btree ("tenant_id","received_at");
--> statement-breakpoint
ALTER TABLE "open_records" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "open_records" USING (tenant_id = (SELECT app_tenant_id())) WITH CHECK (tenant_id = (SELECT app_tenant_id()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "open_records" TO iot_app;
--> statement-breakpoint
CREATE TABLE "open_records_default" PARTITION OF "open_records" DEFAULT;
--> statement-breakpoint
SELECT app_copy_row_security('open_records', 'open_records_default');
--> statement-breakpoint
SELECT app_ensure_daily_partitions('open_records', 'received_at', d.day, d.day)
FROM (SELECT DISTINCT (received_at AT TIME ZONE 'UTC')::date AS day FROM "open_records_unpartitioned" WHERE received_at < now()) d;
--> statement-breakpoint
SELECT app_ensure_daily_partitions('open_records', 'received_at', (now() AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
INSERT INTO "open_records" ("id", "tenant_id", "lock_id", "uplink_id", "method", "slot", "user_slot", "success", "lock_time", "received_at", "refusal", "operator")
SELECT "id", "tenant_id", "lock_id", "uplink_id", "method", "slot", "user_slot", "success", "lock_time", "received_at", "refusal", "operator" FROM "open_records_unpartitioned";
--> statement-breakpoint
DROP TABLE "open_records_unpartitioned";
--> statement-breakpoint
-- audit_log, by created_at.
ALTER TABLE "audit_log" RENAME TO "audit_log_unpartitioned";
--> statement-breakpoint
ALTER TABLE "audit_log_unpartitioned" RENAME CONSTRAINT "audit_log_pkey" TO "audit_log_unpartitioned_pkey";
--> statement-breakpoint
ALTER INDEX "audit_log_time" RENAME TO "audit_log_unpartitioned_time";
--> statement-breakpoint
ALTER INDEX "audit_log_user_action" RENAME TO "audit_log_unpartitioned_user_action";
--> statement-breakpoint
ALTER INDEX "audit_log_tenant_id" RENAME TO "audit_log_unpartitioned_tenant_id";
--> statement-breakpoint
ALTER INDEX "audit_log_failed_sign_in_address" RENAME TO "audit_log_unpartitioned_failed_sign_in_address";
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint DEFAULT nextval('audit_log_id_seq'::regclass) NOT NULL,
	"tenant_id" integer,
	"account_id" integer,
	"username" text NOT NULL,
	"action" text NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"result" text NOT NULL,
	"client_ip" text DEFAULT '' NOT NULL,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"target_name" text,
	"changes" jsonb,
	CONSTRAINT "audit_log_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");
--> statement-breakpoint
ALTER SEQUENCE "audit_log_id_seq" OWNED BY "audit_log"."id";
--> statement-breakpoint
CREATE INDEX "audit_log_time" ON "audit_log" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "audit_log_user_action" ON "audit_log" USING btree ("username","action","created_at");
--> statement-breakpoint
CREATE INDEX "audit_log_tenant_id" ON "audit_log" USING btree ("tenant_id","id");
--> statement-breakpoint
CREATE INDEX "audit_log_failed_sign_in_address" ON "audit_log" USING btree ("client_ip","created_at") WHERE "audit_log"."action" in ('sign-in', 'step-up') and "audit_log"."result" in ('INVALID_CREDENTIALS', 'TWO_FACTOR_INVALID');
--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "audit_log" USING (tenant_id = (SELECT app_tenant_id())) WITH CHECK (tenant_id = (SELECT app_tenant_id()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "audit_log" TO iot_app;
--> statement-breakpoint
CREATE TABLE "audit_log_default" PARTITION OF "audit_log" DEFAULT;
--> statement-breakpoint
SELECT app_copy_row_security('audit_log', 'audit_log_default');
--> statement-breakpoint
SELECT app_ensure_daily_partitions('audit_log', 'created_at', d.day, d.day)
FROM (SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date AS day FROM "audit_log_unpartitioned" WHERE created_at < now()) d;
--> statement-breakpoint
SELECT app_ensure_daily_partitions('audit_log', 'created_at', (now() AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
INSERT INTO "audit_log" ("id", "tenant_id", "account_id", "username", "action", "target", "result", "client_ip", "detail", "created_at", "target_name", "changes")
SELECT "id", "tenant_id", "account_id", "username", "action", "target", "result", "client_ip", "detail", "created_at", "target_name", "changes" FROM "audit_log_unpartitioned";
--> statement-breakpoint
DROP TABLE "audit_log_unpartitioned";
--> statement-breakpoint
-- air_switch_uplinks, by received_at.
ALTER TABLE "air_switch_uplinks" RENAME TO "air_switch_uplinks_unpartitioned";
--> statement-breakpoint
ALTER TABLE "air_switch_uplinks_unpartitioned" RENAME CONSTRAINT "air_switch_uplinks_pkey" TO "air_switch_uplinks_unpartitioned_pkey";
--> statement-breakpoint
ALTER INDEX "air_switch_uplinks_switch_seq" RENAME TO "air_switch_uplinks_unpartitioned_switch_seq";
--> statement-breakpoint
ALTER INDEX "air_switch_uplinks_received" RENAME TO "air_switch_uplinks_unpartitioned_received";
--> statement-breakpoint
CREATE TABLE "air_switch_uplinks" (
	"id" bigint DEFAULT nextval('air_switch_uplinks_id_seq'::regclass) NOT NULL,
	"tenant_id" integer NOT NULL,
	"air_switch_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"device_ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "air_switch_uplinks_id_received_at_pk" PRIMARY KEY("id","received_at")
) PARTITION BY RANGE ("received_at");
--> statement-breakpoint
ALTER SEQUENCE "air_switch_uplinks_id_seq" OWNED BY "air_switch_uplinks"."id";
--> statement-breakpoint
CREATE INDEX "air_switch_uplinks_switch_seq" ON "air_switch_uplinks" USING btree ("air_switch_id","seq");
--> statement-breakpoint
CREATE INDEX "air_switch_uplinks_received" ON "air_switch_uplinks" USING brin ("received_at");
--> statement-breakpoint
ALTER TABLE "air_switch_uplinks" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "air_switch_uplinks" USING (tenant_id = (SELECT app_tenant_id())) WITH CHECK (tenant_id = (SELECT app_tenant_id()));
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "air_switch_uplinks" TO iot_app;
--> statement-breakpoint
CREATE TABLE "air_switch_uplinks_default" PARTITION OF "air_switch_uplinks" DEFAULT;
--> statement-breakpoint
SELECT app_copy_row_security('air_switch_uplinks', 'air_switch_uplinks_default');
--> statement-breakpoint
SELECT app_ensure_daily_partitions('air_switch_uplinks', 'received_at', d.day, d.day)
FROM (SELECT DISTINCT (received_at AT TIME ZONE 'UTC')::date AS day FROM "air_switch_uplinks_unpartitioned" WHERE received_at < now()) d;
--> statement-breakpoint
SELECT app_ensure_daily_partitions('air_switch_uplinks', 'received_at', (now() AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date + 7);
--> statement-breakpoint
INSERT INTO "air_switch_uplinks" ("id", "tenant_id", "air_switch_id", "seq", "type", "device_ts", "received_at", "data")
SELECT "id", "tenant_id", "air_switch_id", "seq", "type", "device_ts", "received_at", "data" FROM "air_switch_uplinks_unpartitioned";
--> statement-breakpoint
DROP TABLE "air_switch_uplinks_unpartitioned";
