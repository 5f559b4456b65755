DROP INDEX "air_switch_energy_daily_tenant";--> statement-breakpoint
ALTER TABLE "air_switch_load_hourly" ADD COLUMN "kwh" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "air_switch_load_hourly" ADD COLUMN "trips" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "air_switch_energy_daily_tenant_kwh" ON "air_switch_energy_daily" USING btree ("tenant_id","day","circuit_id","kwh");