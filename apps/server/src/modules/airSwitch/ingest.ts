/**
 * Air switch uplinks into this module's tables, in the gateway's group-commit transaction (called by
 * gateway/uplink-store.ts storeAirSwitchUplinks; ack after commit as for locks):
 * 1. every uplink into `air_switch_uplinks` (the raw log, kept TELEMETRY_RETENTION_DAYS); a (switch,
 *    seq) stored before is a duplicate and has no further effect;
 * 2. the switches' last_seq / last_uplink_at;
 * 3. readings.ts over the circuits (rows locked): latest readings and states, energy and power into
 *    the hourly and daily rollups (days in `timeZone`) and the data centre's hourly load, trips;
 * 4. trip and threshold alarms into the alert lifecycle (alerts.ts), command results (commands.ts),
 *    reported thresholds.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { applyAlarmChanges } from './alerts.js';
import { applyCommandResults } from './commands.js';
import { applyReadings, type CircuitState, type NewUplink, type RollupIncrement } from './readings.js';

/** One validated uplink of an authenticated air switch. */
export interface AirSwitchUplinkRecord {
  airSwitchId: number;
  tenantId: number;
  serial: string;
  message: protocol.AirSwitchUplinkMessage;
}

const param = <T, V>(rows: readonly T[], pick: (row: T) => V) => sql.param(rows.map(pick));

/** Stores `records` (see the module comment); returns how many were new. */
export async function applyAirSwitchUplinks(tx: Tx, records: readonly AirSwitchUplinkRecord[], options: { timeZone: string }): Promise<number> {
  const seen = new Set<string>();
  const unique = records.filter((r) => !seen.has(`${r.airSwitchId}:${r.message.seq}`) && seen.add(`${r.airSwitchId}:${r.message.seq}`));
  if (unique.length === 0) return 0;
  const inserted = rowsOf<{ air_switch_id: number; seq: number }>(await tx.execute(sql`
    insert into air_switch_uplinks (tenant_id, air_switch_id, seq, type, device_ts, data)
    select t, a, s, ty, to_timestamp(ts / 1000.0), d from unnest(
      ${param(unique, (r) => r.tenantId)}::int[], ${param(unique, (r) => r.airSwitchId)}::int[], ${param(unique, (r) => r.message.seq)}::int[],
      ${param(unique, (r) => r.message.type)}::text[], ${param(unique, (r) => r.message.ts)}::float8[], ${param(unique, (r) => JSON.stringify(r.message.data))}::jsonb[])
      as v(t, a, s, ty, ts, d)
    on conflict (air_switch_id, seq) do nothing
    returning air_switch_id, seq`));
  const isNew = new Set(inserted.map((row) => `${row.air_switch_id}:${row.seq}`));
  const fresh: NewUplink[] = unique.filter((r) => isNew.has(`${r.airSwitchId}:${r.message.seq}`));
  const maxSeq = new Map<number, number>();
  for (const r of unique) maxSeq.set(r.airSwitchId, Math.max(maxSeq.get(r.airSwitchId) ?? -1, r.message.seq));
  await tx.execute(sql`
    update air_switches s set last_seq = greatest(s.last_seq, v.seq), last_uplink_at = now()
    from unnest(${sql.param([...maxSeq.keys()])}::int[], ${sql.param([...maxSeq.values()])}::int[]) as v(id, seq) where s.id = v.id`);
  if (fresh.length === 0) return 0;

  const switchIds = [...new Set(fresh.map((u) => u.airSwitchId))];
  const circuits = new Map<string, CircuitState>();
  for (const row of rowsOf<{ id: number; tenant_id: number; air_switch_id: number; circuit: number; state: string | null; trip_reason: string | null; energy_kwh: number | null; reading_seq: number | null }>(
    await tx.execute(sql`
      select id, tenant_id, air_switch_id, circuit, state, trip_reason, energy_kwh, reading_seq from air_switch_circuits
      where air_switch_id = any(${sql.param(switchIds)}::int[]) order by id for update`))) {
    circuits.set(`${row.air_switch_id}:${row.circuit}`, {
      id: row.id, tenantId: row.tenant_id, airSwitchId: row.air_switch_id, circuit: row.circuit, state: row.state, tripReason: row.trip_reason,
      energyKwh: row.energy_kwh === null ? null : Number(row.energy_kwh), readingSeq: row.reading_seq,
    });
  }
  const { rollups, alarms } = applyReadings(fresh, circuits);
  await writeCircuits(tx, [...circuits.values()].filter((c) => c.changed));
  await writeRollups(tx, rollups, options.timeZone);
  await applyAlarmChanges(tx, alarms);
  await applyCommandResults(tx, fresh.flatMap((u) => (u.message.type === 'commandResult' ? [{ airSwitchId: u.airSwitchId, data: u.message.data }] : [])));
  const reports = fresh.flatMap((u) => (u.message.type === 'configReport' ? [{ airSwitchId: u.airSwitchId, ...u.message.data }] : []));
  if (reports.length) {
    await tx.execute(sql`
      update air_switch_circuits c set reported_thresholds = v.t from unnest(
        ${param(reports, (r) => r.airSwitchId)}::int[], ${param(reports, (r) => r.circuit)}::int[], ${param(reports, (r) => JSON.stringify(r.thresholds))}::jsonb[])
        as v(a, n, t) where c.air_switch_id = v.a and c.circuit = v.n`);
  }
  return fresh.length;
}

async function writeCircuits(tx: Tx, changed: readonly CircuitState[]): Promise<void> {
  if (changed.length === 0) return;
  const r = (c: CircuitState) => c.reading;
  await tx.execute(sql`
    update air_switch_circuits c set state = v.state, trip_reason = v.reason, reading_seq = v.seq,
      energy_kwh = coalesce(v.kwh, c.energy_kwh), voltage = coalesce(v.voltage, c.voltage), current = coalesce(v.cur, c.current),
      power = case when v.state <> 'on' then 0 else coalesce(v.power, c.power) end, power_factor = coalesce(v.pf, c.power_factor),
      leakage_ma = coalesce(v.leak, c.leakage_ma), temperature_c = coalesce(v.temp, c.temperature_c), reading_at = coalesce(v.at, c.reading_at)
    from unnest(${param(changed, (c) => c.id)}::int[], ${param(changed, (c) => c.state)}::text[], ${param(changed, (c) => c.tripReason)}::text[],
      ${param(changed, (c) => c.readingSeq)}::int[], ${param(changed, (c) => r(c)?.energyKwh ?? null)}::float8[], ${param(changed, (c) => r(c)?.voltage ?? null)}::real[],
      ${param(changed, (c) => r(c)?.current ?? null)}::real[], ${param(changed, (c) => r(c)?.power ?? null)}::real[], ${param(changed, (c) => r(c)?.powerFactor ?? null)}::real[],
      ${param(changed, (c) => r(c)?.leakageMa ?? null)}::real[], ${param(changed, (c) => r(c)?.temperatureC ?? null)}::real[],
      ${param(changed, (c) => c.readingAt?.toISOString() ?? null)}::timestamptz[])
      as v(id, state, reason, seq, kwh, voltage, cur, power, pf, leak, temp, at)
    where c.id = v.id`);
}

/**
 * Adds the increments to the hourly and daily rollups and the data centre's hourly row (load, kWh,
 * trips): a circuit's share of the load is its average power in the hour, so the load changes by new
 * average - old average.
 */
async function writeRollups(tx: Tx, rollups: readonly RollupIncrement[], timeZone: string): Promise<void> {
  if (rollups.length === 0) return;
  const values = sql`unnest(${param(rollups, (r) => r.tenantId)}::int[], ${param(rollups, (r) => r.circuitId)}::int[], ${param(rollups, (r) => r.hour.toISOString())}::timestamptz[],
    ${param(rollups, (r) => r.kwh)}::float8[], ${param(rollups, (r) => r.powerSum)}::float8[], ${param(rollups, (r) => r.samples)}::int[],
    ${param(rollups, (r) => r.powerMax)}::real[], ${param(rollups, (r) => r.trips)}::int[]) as v(tenant_id, circuit_id, hour, kwh, power_sum, samples, power_max, trips)`;
  const hourly = rowsOf<{ tenant_id: number; hour_ms: number; power_sum: number; samples: number; added_sum: number; added_samples: number }>(await tx.execute(sql`
    with v as (select * from ${values}),
    up as (
      insert into air_switch_energy_hourly as h (tenant_id, circuit_id, hour, kwh, power_sum, samples, power_max, trips)
      select tenant_id, circuit_id, hour, kwh, power_sum, samples, power_max, trips from v
      on conflict (circuit_id, hour) do update set kwh = h.kwh + excluded.kwh, power_sum = h.power_sum + excluded.power_sum,
        samples = h.samples + excluded.samples, power_max = greatest(h.power_max, excluded.power_max), trips = h.trips + excluded.trips
      returning tenant_id, circuit_id, hour, power_sum, samples)
    select up.tenant_id, extract(epoch from up.hour)::float8 * 1000 as hour_ms, up.power_sum, up.samples, v.power_sum as added_sum, v.samples as added_samples
    from up join v on v.circuit_id = up.circuit_id and v.hour = up.hour`));
  await tx.execute(sql`
    insert into air_switch_energy_daily as d (tenant_id, circuit_id, day, kwh, power_sum, samples, power_max, trips)
    select tenant_id, circuit_id, (hour at time zone ${timeZone})::date, sum(kwh), sum(power_sum), sum(samples), max(power_max), sum(trips)
    from ${values} group by 1, 2, 3
    on conflict (circuit_id, day) do update set kwh = d.kwh + excluded.kwh, power_sum = d.power_sum + excluded.power_sum,
      samples = d.samples + excluded.samples, power_max = greatest(d.power_max, excluded.power_max), trips = d.trips + excluded.trips`);
  const load = new Map<string, { tenantId: number; hour: string; delta: number; kwh: number; trips: number }>();
  const entryOf = (tenantId: number, hour: string) => {
    const key = `${tenantId}:${hour}`;
    const entry = load.get(key) ?? { tenantId, hour, delta: 0, kwh: 0, trips: 0 };
    load.set(key, entry);
    return entry;
  };
  for (const r of rollups) {
    const entry = entryOf(r.tenantId, r.hour.toISOString());
    entry.kwh += r.kwh;
    entry.trips += r.trips;
  }
  for (const row of hourly) {
    const newSum = Number(row.power_sum);
    const oldSamples = row.samples - row.added_samples;
    if (row.samples === 0) continue; // a trip without a reading in the hour
    const delta = newSum / row.samples - (oldSamples > 0 ? (newSum - Number(row.added_sum)) / oldSamples : 0);
    entryOf(row.tenant_id, new Date(Number(row.hour_ms)).toISOString()).delta += delta;
  }
  const loads = [...load.values()];
  await tx.execute(sql`
    insert into air_switch_load_hourly as l (tenant_id, hour, load_w, kwh, trips)
    select * from unnest(${param(loads, (l) => l.tenantId)}::int[], ${param(loads, (l) => l.hour)}::timestamptz[], ${param(loads, (l) => l.delta)}::float8[],
      ${param(loads, (l) => l.kwh)}::float8[], ${param(loads, (l) => l.trips)}::int[])
    on conflict (tenant_id, hour) do update set load_w = l.load_w + excluded.load_w, kwh = l.kwh + excluded.kwh, trips = l.trips + excluded.trips`);
}
