-- One command outbox for every device kind: the air switches' commands (air_switch_commands) move into
-- `commands`, which names its device by kind (device_kind, then lock_id or air_switch_id + circuit).
-- Every row moves with its values under a new id (the lock commands keep theirs: credentials, remote
-- unlocks and access schedules link those). An air switch command takes the outbox's columns by its
-- kind's policy: max_attempts 1 (never resent: it switches power), attempts 1 once it was sent, and
-- expires_at its queueing time plus protocol AIR_SWITCH_COMMAND_TTL_MS (60 s), which the sweep used.
ALTER TABLE "commands" ALTER COLUMN "lock_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "device_kind" text DEFAULT 'lock' NOT NULL;--> statement-breakpoint
ALTER TABLE "commands" ALTER COLUMN "device_kind" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "air_switch_id" integer;--> statement-breakpoint
ALTER TABLE "commands" ADD COLUMN "circuit" integer;--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_air_switch_id_air_switches_id_fk" FOREIGN KEY ("air_switch_id") REFERENCES "public"."air_switches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "commands" ("msg_id", "tenant_id", "device_kind", "air_switch_id", "circuit", "type", "data", "state", "attempts", "max_attempts",
  "created_by", "created_at", "expires_at", "sent_at", "delivered_at", "completed_at", "result_code", "result_detail")
  SELECT "msg_id", "tenant_id", 'airSwitch', "air_switch_id", "circuit", "type", "data", "state", CASE WHEN "sent_at" IS NULL THEN 0 ELSE 1 END, 1,
    "created_by", "created_at", "created_at" + interval '60 seconds', "sent_at", "delivered_at", "completed_at", "result_code", "result_detail"
  FROM "air_switch_commands" ORDER BY "id";--> statement-breakpoint
DROP TABLE "air_switch_commands" CASCADE;--> statement-breakpoint
CREATE INDEX "commands_air_switch" ON "commands" USING btree ("air_switch_id","id");--> statement-breakpoint
ALTER TABLE "commands" ADD CONSTRAINT "commands_one_device" CHECK ((device_kind = 'lock' and lock_id is not null and air_switch_id is null and circuit is null)
    or (device_kind = 'airSwitch' and air_switch_id is not null and circuit is not null and lock_id is null));
