/**
 * History for bench/airswitch.ts's energy queries: `days` days of hourly rollup rows (0.4-1.2 kWh per
 * circuit and hour, a trip now and then) for every circuit of tenant 100, ending before `before` (the
 * hour the ingest rounds started, whose rows they keep), with their cumulative kWh; the circuits'
 * totals; the daily rows (days in `timeZone`) and the data centre's hourly rows summed from them, as
 * ingest would have written them. Then VACUUM ANALYZE, as autovacuum leaves the past rows.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.js';

/** Seeds the history (see the module comment); `before` is a whole UTC hour. */
export async function seedEnergyHistory(database: Database, before: Date, days: number, timeZone: string): Promise<void> {
  const db = database.system;
  const end = before.toISOString();
  await db.execute(sql`
    insert into air_switch_energy_hourly (tenant_id, circuit_id, hour, kwh, power_sum, samples, power_max, trips, kwh_total)
    select 100, circuit_id, hour, kwh, kwh * 360000, 360, kwh * 1300, trips, sum(kwh) over (partition by circuit_id order by hour)
    from (select c.id as circuit_id, h as hour, 0.4 + 0.8 * random() as kwh, (random() < 0.0005)::int as trips from air_switch_circuits c,
      generate_series(${end}::timestamptz - make_interval(days => ${days}), ${end}::timestamptz - interval '1 hour', interval '1 hour') h) x
    order by hour, circuit_id`); // in time order, as ingest writes them
  // The ingest rounds' rows (from `before` on) and the circuits' totals come after the seeded history.
  await db.execute(sql`
    with seeded as (select circuit_id, sum(kwh) as total, max(hour) as last from air_switch_energy_hourly where hour < ${end}::timestamptz group by 1),
    later as (update air_switch_energy_hourly h set kwh_total = h.kwh_total + s.total from seeded s where h.circuit_id = s.circuit_id and h.hour >= ${end}::timestamptz)
    update air_switch_circuits c set energy_total_kwh = c.energy_total_kwh + s.total, energy_hour = coalesce(c.energy_hour, s.last),
      hour_power_max_w = case when c.energy_hour is null then (select h.power_max from air_switch_energy_hourly h where h.circuit_id = c.id and h.hour = s.last)
        else c.hour_power_max_w end
    from seeded s where c.id = s.circuit_id`);
  await db.execute(sql`
    insert into air_switch_energy_daily as d (tenant_id, circuit_id, day, kwh, power_sum, samples, power_max, trips)
    select 100, circuit_id, (hour at time zone ${timeZone})::date, sum(kwh), sum(power_sum), sum(samples), max(power_max), sum(trips)
    from air_switch_energy_hourly where hour < ${end}::timestamptz group by 2, 3
    on conflict (circuit_id, day) do update set kwh = d.kwh + excluded.kwh, power_sum = d.power_sum + excluded.power_sum,
      samples = d.samples + excluded.samples, power_max = greatest(d.power_max, excluded.power_max), trips = d.trips + excluded.trips`);
  await db.execute(sql`
    insert into air_switch_load_hourly (tenant_id, hour, load_w, power_max_w, kwh, trips)
    select 100, hour, sum(power_sum / samples), sum(power_max::float8), sum(kwh), sum(trips) from air_switch_energy_hourly
    where hour < ${end}::timestamptz group by 2`);
  await db.execute(sql`vacuum analyze`);
}
