DROP INDEX "air_switch_energy_daily_tenant_kwh";--> statement-breakpoint
ALTER TABLE "air_switch_circuits" ADD COLUMN "energy_total_kwh" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "air_switch_circuits" ADD COLUMN "energy_hour" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "air_switch_circuits" ADD COLUMN "hour_power_max_w" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "air_switch_energy_hourly" ADD COLUMN "kwh_total" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "air_switch_load_hourly" ADD COLUMN "power_max_w" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Backfill (issue #13): each hourly row's cumulative kWh, each circuit's total, latest hour and its highest reading, the data centre's hourly maximum load.
UPDATE air_switch_energy_hourly h SET kwh_total = t.total
FROM (SELECT circuit_id, hour, sum(kwh) OVER (PARTITION BY circuit_id ORDER BY hour) AS total FROM air_switch_energy_hourly) t
WHERE h.circuit_id = t.circuit_id AND h.hour = t.hour;--> statement-breakpoint
UPDATE air_switch_circuits c SET energy_total_kwh = t.total, energy_hour = t.last,
  hour_power_max_w = (SELECT h.power_max FROM air_switch_energy_hourly h WHERE h.circuit_id = c.id AND h.hour = t.last)
FROM (SELECT circuit_id, sum(kwh) AS total, max(hour) AS last FROM air_switch_energy_hourly GROUP BY circuit_id) t
WHERE c.id = t.circuit_id;--> statement-breakpoint
UPDATE air_switch_load_hourly l SET power_max_w = t.w
FROM (SELECT tenant_id, hour, sum(power_max::float8) AS w FROM air_switch_energy_hourly GROUP BY tenant_id, hour) t
WHERE l.tenant_id = t.tenant_id AND l.hour = t.hour;
--> statement-breakpoint
-- Every ingest batch rewrites its switches' and circuits' rows (non-indexed columns only): room in the page keeps those updates HOT (no index writes).
ALTER TABLE air_switch_circuits SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE air_switches SET (fillfactor = 50);
