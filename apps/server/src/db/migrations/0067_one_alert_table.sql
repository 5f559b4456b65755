-- One alert table for every device kind: the air switches' alarms (air_switch_alerts) move into
-- `alerts`, which names its device by kind (device_kind, then lock_id or air_switch_id + circuit).
-- Every row moves with its values; an air switch alert gets a new id (the lock alerts keep theirs,
-- work orders link those), and each notification of an air switch alert is pointed at the new id
-- (one whose alert no longer exists loses its link: its old id could now be another alert's).
ALTER TABLE "alerts" ALTER COLUMN "lock_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "device_kind" text DEFAULT 'lock' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ALTER COLUMN "device_kind" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "air_switch_id" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "circuit" integer;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "moved_from" bigint;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_air_switch_id_air_switches_id_fk" FOREIGN KEY ("air_switch_id") REFERENCES "public"."air_switches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "alerts" ("tenant_id", "device_kind", "air_switch_id", "circuit", "kind", "severity", "state", "occurrences", "detail",
  "first_at", "last_at", "cleared_at", "acknowledged_by", "acknowledged_at", "acknowledge_note", "moved_from")
  SELECT "tenant_id", 'airSwitch', "air_switch_id", "circuit", "kind", "severity", "state", "occurrences", "detail",
    "first_at", "last_at", "cleared_at", "acknowledged_by", "acknowledged_at", "acknowledge_note", "id"
  FROM "air_switch_alerts" ORDER BY "id";--> statement-breakpoint
UPDATE "notifications" n SET "alert_id" = NULL
  WHERE n."device_kind" = 'airSwitch' AND n."alert_id" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "alerts" a WHERE a."moved_from" = n."alert_id");--> statement-breakpoint
UPDATE "notifications" n SET "alert_id" = a."id" FROM "alerts" a
  WHERE n."device_kind" = 'airSwitch' AND a."moved_from" = n."alert_id";--> statement-breakpoint
ALTER TABLE "alerts" DROP COLUMN "moved_from";--> statement-breakpoint
DROP TABLE "air_switch_alerts" CASCADE;--> statement-breakpoint
DROP INDEX "alerts_tenant_time";--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_air_switch_one_active" ON "alerts" USING btree ("air_switch_id","circuit","kind") WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "alerts_air_switch" ON "alerts" USING btree ("air_switch_id");--> statement-breakpoint
CREATE INDEX "alerts_tenant_time" ON "alerts" USING btree ("tenant_id","device_kind","last_at");--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_one_device" CHECK ((device_kind = 'lock' and lock_id is not null and air_switch_id is null and circuit is null)
    or (device_kind = 'airSwitch' and air_switch_id is not null and circuit is not null and lock_id is null));
