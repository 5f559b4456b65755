/**
 * The energy and power rollups of an ingest batch (called by ingest.ts in the gateway's transaction,
 * with the batch's circuits locked): per circuit and UTC hour (air_switch_energy_hourly, with each
 * row's cumulative `kwh_total`), per circuit and day in the rollup zone (air_switch_energy_daily), and
 * the data centre per hour (air_switch_load_hourly: load, maximum load, kWh, trips). Every statement
 * adds to what is stored (one per table and batch), so several instances stay exact.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import type { RollupIncrement } from './readings.js';

const param = <T, V>(rows: readonly T[], pick: (row: T) => V) => sql.param(rows.map(pick));

/**
 * Adds `rollups` (kWh, W sums, trips; `kwhTotal` set by readings.ts assignTotals) to the three rollups.
 * A circuit's share of the data centre's load is its average power in the hour, so the load changes
 * by new average - old average; its share of the maximum load is its highest reading in the hour, W.
 * `late`: circuits whose hourly `kwh_total` must be recomputed from the given hour on.
 */
export async function writeRollups(tx: Tx, rollups: readonly RollupIncrement[], timeZone: string, late: ReadonlyMap<number, Date>): Promise<void> {
  if (rollups.length === 0) return;
  const values = sql`unnest(${param(rollups, (r) => r.tenantId)}::int[], ${param(rollups, (r) => r.circuitId)}::int[], ${param(rollups, (r) => r.hour.toISOString())}::timestamptz[],
    ${param(rollups, (r) => r.kwh)}::float8[], ${param(rollups, (r) => r.powerSum)}::float8[], ${param(rollups, (r) => r.samples)}::int[],
    ${param(rollups, (r) => r.powerMax)}::real[], ${param(rollups, (r) => r.trips)}::int[], ${param(rollups, (r) => r.kwhTotal ?? 0)}::float8[],
    ${param(rollups, (r) => r.maxDelta ?? null)}::float8[]) as v(tenant_id, circuit_id, hour, kwh, power_sum, samples, power_max, trips, kwh_total, max_delta)`;
  // The maximum's change is known from the circuit (assignTotals) but for a late hour: `old` reads those
  // rows as they were before this statement (one snapshot; materialized, so computed once).
  const hourly = rowsOf<{ tenant_id: number; hour_ms: number; power_sum: number; samples: number; added_sum: number; added_samples: number; max_delta: number }>(await tx.execute(sql`
    with v as (select * from ${values}),
    old as materialized (select h.circuit_id, h.hour, h.power_max from air_switch_energy_hourly h join v on h.circuit_id = v.circuit_id and h.hour = v.hour
      where v.max_delta is null),
    up as (
      insert into air_switch_energy_hourly as h (tenant_id, circuit_id, hour, kwh, power_sum, samples, power_max, trips, kwh_total)
      select tenant_id, circuit_id, hour, kwh, power_sum, samples, power_max, trips, kwh_total from v
      on conflict (circuit_id, hour) do update set kwh = h.kwh + excluded.kwh, power_sum = h.power_sum + excluded.power_sum,
        samples = h.samples + excluded.samples, power_max = greatest(h.power_max, excluded.power_max), trips = h.trips + excluded.trips,
        kwh_total = excluded.kwh_total
      returning tenant_id, circuit_id, hour, power_sum, samples, power_max)
    select up.tenant_id, extract(epoch from up.hour)::float8 * 1000 as hour_ms, up.power_sum, up.samples, v.power_sum as added_sum, v.samples as added_samples,
      coalesce(v.max_delta, up.power_max::float8 - coalesce(old.power_max, 0)::float8) as max_delta
    from up join v on v.circuit_id = up.circuit_id and v.hour = up.hour left join old on old.circuit_id = up.circuit_id and old.hour = up.hour`));
  if (late.size) await recomputeTotals(tx, late);
  await tx.execute(sql`
    insert into air_switch_energy_daily as d (tenant_id, circuit_id, day, kwh, power_sum, samples, power_max, trips)
    select tenant_id, circuit_id, (hour at time zone ${timeZone})::date, sum(kwh), sum(power_sum), sum(samples), max(power_max), sum(trips)
    from ${values} group by 1, 2, 3
    on conflict (circuit_id, day) do update set kwh = d.kwh + excluded.kwh, power_sum = d.power_sum + excluded.power_sum,
      samples = d.samples + excluded.samples, power_max = greatest(d.power_max, excluded.power_max), trips = d.trips + excluded.trips`);
  const load = new Map<string, { tenantId: number; hour: string; delta: number; maxDelta: number; kwh: number; trips: number }>();
  const entryOf = (tenantId: number, hour: string) => {
    const key = `${tenantId}:${hour}`;
    const entry = load.get(key) ?? { tenantId, hour, delta: 0, maxDelta: 0, kwh: 0, trips: 0 };
    load.set(key, entry);
    return entry;
  };
  for (const r of rollups) {
    const entry = entryOf(r.tenantId, r.hour.toISOString());
    entry.kwh += r.kwh;
    entry.trips += r.trips;
  }
  for (const row of hourly) {
    const entry = entryOf(row.tenant_id, new Date(Number(row.hour_ms)).toISOString());
    entry.maxDelta += Number(row.max_delta);
    const newSum = Number(row.power_sum);
    const oldSamples = row.samples - row.added_samples;
    if (row.samples === 0) continue; // a trip without a reading in the hour
    entry.delta += newSum / row.samples - (oldSamples > 0 ? (newSum - Number(row.added_sum)) / oldSamples : 0);
  }
  const loads = [...load.values()];
  await tx.execute(sql`
    insert into air_switch_load_hourly as l (tenant_id, hour, load_w, power_max_w, kwh, trips)
    select * from unnest(${param(loads, (l) => l.tenantId)}::int[], ${param(loads, (l) => l.hour)}::timestamptz[], ${param(loads, (l) => l.delta)}::float8[],
      ${param(loads, (l) => l.maxDelta)}::float8[], ${param(loads, (l) => l.kwh)}::float8[], ${param(loads, (l) => l.trips)}::int[])
    on conflict (tenant_id, hour) do update set load_w = l.load_w + excluded.load_w, power_max_w = l.power_max_w + excluded.power_max_w,
      kwh = l.kwh + excluded.kwh, trips = l.trips + excluded.trips`);
}

/**
 * Late increments (an hour before the circuit's latest row): the circuit's `kwh_total` from that hour
 * on, as the row before it plus the running sum of `kwh` (rare: a delayed or redelivered reading).
 */
async function recomputeTotals(tx: Tx, late: ReadonlyMap<number, Date>): Promise<void> {
  await tx.execute(sql`
    update air_switch_energy_hourly h set kwh_total = r.total from (
      select x.circuit_id, x.hour, coalesce((select p.kwh_total from air_switch_energy_hourly p where p.circuit_id = v.id and p.hour < v.since order by p.hour desc limit 1), 0)
        + sum(x.kwh) over (partition by x.circuit_id order by x.hour) as total
      from unnest(${sql.param([...late.keys()])}::int[], ${sql.param([...late.values()].map((d) => d.toISOString()))}::timestamptz[]) as v(id, since)
      join air_switch_energy_hourly x on x.circuit_id = v.id and x.hour >= v.since) r
    where h.circuit_id = r.circuit_id and h.hour = r.hour`);
}
