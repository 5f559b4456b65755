/**
 * DEMO=on: 30 days of plausible history for a newly seeded simulated switch, straight into the rollups
 * (the raw uplinks of the past are not invented): per circuit and hour a load following the day
 * (low at night, high in the afternoon) with noise, now and then a trip; the daily rows (days in
 * `timeZone`) and the data centre's hourly load, maximum load, energy and trips summed from them, the
 * hourly rows' cumulative kWh and the circuits' totals. The current hour is left to live data.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';

/** Fills the rollups of switch `airSwitchId` for the `days` days before the current hour. */
export async function backfillDemoHistory(tx: Tx, airSwitchId: number, timeZone: string, days = 30): Promise<void> {
  await tx.execute(sql`
    insert into air_switch_energy_hourly (tenant_id, circuit_id, hour, kwh, power_sum, samples, power_max, trips)
    select c.tenant_id, c.id, h, w / 1000.0, w * 360, 360, w * (1.1 + random() * 0.3), case when random() < 0.003 then 1 else 0 end
    from air_switch_circuits c
    cross join generate_series(date_trunc('hour', now()) - make_interval(days => ${days}), date_trunc('hour', now()) - interval '1 hour', interval '1 hour') h
    cross join lateral (select (600 + (c.id % 7) * 350) * (0.2 + 0.8 * greatest(0, sin(pi() * (extract(hour from h at time zone ${timeZone}) - 6) / 15)))
      * (0.8 + random() * 0.4) as w) x
    where c.air_switch_id = ${airSwitchId}
    on conflict do nothing`);
  await tx.execute(sql`
    insert into air_switch_energy_daily as d (tenant_id, circuit_id, day, kwh, power_sum, samples, power_max, trips)
    select h.tenant_id, h.circuit_id, (h.hour at time zone ${timeZone})::date, sum(h.kwh), sum(h.power_sum), sum(h.samples), max(h.power_max), sum(h.trips)
    from air_switch_energy_hourly h join air_switch_circuits c on c.id = h.circuit_id where c.air_switch_id = ${airSwitchId} group by 1, 2, 3
    on conflict (circuit_id, day) do update set kwh = d.kwh + excluded.kwh, power_sum = d.power_sum + excluded.power_sum,
      samples = d.samples + excluded.samples, power_max = greatest(d.power_max, excluded.power_max), trips = d.trips + excluded.trips`);
  await tx.execute(sql`
    insert into air_switch_load_hourly as l (tenant_id, hour, load_w, power_max_w, kwh, trips)
    select h.tenant_id, h.hour, sum(h.power_sum / h.samples), sum(h.power_max::float8), sum(h.kwh), sum(h.trips) from air_switch_energy_hourly h
    join air_switch_circuits c on c.id = h.circuit_id where c.air_switch_id = ${airSwitchId} group by 1, 2
    on conflict (tenant_id, hour) do update set load_w = l.load_w + excluded.load_w, power_max_w = l.power_max_w + excluded.power_max_w,
      kwh = l.kwh + excluded.kwh, trips = l.trips + excluded.trips`);
  // The hourly rows' cumulative kWh and the circuits' totals, as ingest keeps them (rollups.ts).
  await tx.execute(sql`
    update air_switch_energy_hourly h set kwh_total = t.total from (
      select x.circuit_id, x.hour, sum(x.kwh) over (partition by x.circuit_id order by x.hour) as total
      from air_switch_energy_hourly x join air_switch_circuits c on c.id = x.circuit_id where c.air_switch_id = ${airSwitchId}) t
    where h.circuit_id = t.circuit_id and h.hour = t.hour`);
  await tx.execute(sql`
    update air_switch_circuits c set energy_total_kwh = t.total, energy_hour = t.last,
      hour_power_max_w = (select h.power_max from air_switch_energy_hourly h where h.circuit_id = c.id and h.hour = t.last)
    from (select circuit_id, sum(kwh) as total, max(hour) as last from air_switch_energy_hourly
      where circuit_id in (select id from air_switch_circuits where air_switch_id = ${airSwitchId}) group by 1) t
    where c.air_switch_id = ${airSwitchId} and c.id = t.circuit_id`);
}
