-- One device registry: every device that may connect, of every kind, gets a row in `devices` with its
-- MQTT client id (a lock's IMEI, an air switch's serial; unique across kinds) and the SHA-256 of its
-- device secret, which moves out of `locks` and `air_switches`. Every registered lock (its IMEI not
-- released) and every air switch is copied with its secret hash, so each device keeps connecting with
-- the secret it has. A lock whose IMEI was released gets no row: it can never connect again, and its
-- IMEI may belong to a newer lock. Composite foreign keys tie the row's client id and data centre to
-- the device's own, and deleting the device deletes its row.
ALTER TABLE "locks" ADD CONSTRAINT "locks_identity" UNIQUE("id","tenant_id","imei");--> statement-breakpoint
ALTER TABLE "air_switches" ADD CONSTRAINT "air_switches_identity" UNIQUE("id","tenant_id","serial");--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"device_kind" text NOT NULL,
	"lock_id" integer,
	"air_switch_id" integer,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_one_device" CHECK ((device_kind = 'lock' and lock_id is not null and air_switch_id is null)
    or (device_kind = 'airSwitch' and air_switch_id is not null and lock_id is null))
);
--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_lock_identity" FOREIGN KEY ("lock_id","tenant_id","client_id") REFERENCES "public"."locks"("id","tenant_id","imei") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_air_switch_identity" FOREIGN KEY ("air_switch_id","tenant_id","client_id") REFERENCES "public"."air_switches"("id","tenant_id","serial") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "devices" ("tenant_id", "device_kind", "lock_id", "client_id", "secret_hash", "created_at")
  SELECT "tenant_id", 'lock', "id", "imei", "device_secret_hash", "created_at" FROM "locks" WHERE "imei_released_at" IS NULL ORDER BY "id";--> statement-breakpoint
INSERT INTO "devices" ("tenant_id", "device_kind", "air_switch_id", "client_id", "secret_hash", "created_at")
  SELECT "tenant_id", 'airSwitch', "id", "serial", "device_secret_hash", "created_at" FROM "air_switches" ORDER BY "id";--> statement-breakpoint
CREATE UNIQUE INDEX "devices_client_id" ON "devices" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_lock" ON "devices" USING btree ("lock_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_air_switch" ON "devices" USING btree ("air_switch_id");--> statement-breakpoint
ALTER TABLE "locks" DROP COLUMN "device_secret_hash";--> statement-breakpoint
ALTER TABLE "air_switches" DROP COLUMN "device_secret_hash";--> statement-breakpoint
ALTER TABLE "devices" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "devices" USING (tenant_id = (SELECT app_tenant_id())) WITH CHECK (tenant_id = (SELECT app_tenant_id()));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "devices" TO iot_app;
