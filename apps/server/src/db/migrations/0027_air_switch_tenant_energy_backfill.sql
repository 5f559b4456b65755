-- The data centre's hourly energy and trips (issue #13, 0026) from the per-circuit hourly rollup kept so far.
INSERT INTO air_switch_load_hourly AS l (tenant_id, hour, kwh, trips)
SELECT tenant_id, hour, sum(kwh), sum(trips) FROM air_switch_energy_hourly GROUP BY tenant_id, hour
ON CONFLICT (tenant_id, hour) DO UPDATE SET kwh = excluded.kwh, trips = excluded.trips;
