/**
 * Air switch uplinks into this module's tables, in the gateway's group-commit transaction (called by
 * the air switch kind's store in gateway/device-kinds.ts; ack after commit as for locks):
 * 1. every uplink into the one uplink log (uplinkLog insertAirSwitchUplinks; raw telemetry, kept
 *    TELEMETRY_RETENTION_DAYS; new ones emit `airSwitch.reading`); a (switch, seq) stored before is a
 *    duplicate and has no further effect;
 * 2. the switches' last_seq / last_uplink_at;
 * 3. readings.ts over the circuits (rows locked): latest readings and states, the circuits' energy
 *    totals, energy and power into the hourly (with cumulative kWh) and daily rollups (days in
 *    `timeZone`) and the data centre's hourly load, maximum load, kWh, trips (rollups.ts);
 * 4. trip and threshold alarms into the alert lifecycle (alerts.ts), command results (commands.ts),
 *    reported thresholds.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { AIR_SWITCH_SEQ_WRITERS, lockSeqWriters } from '../../db/seq-writers.js';
import { emitAll, idListEvents } from '../../events/emit.js';
import { applyAlarmChanges } from '../deviceAlert/air-switch.js';
import { applyCommandResults } from '../command/air-switch.js';
import { insertAirSwitchUplinks } from '../uplinkLog/writer.js';
import { applyReadings, assignTotals, type CircuitState, type NewUplink } from './readings.js';
import { writeRollups } from './rollups.js';

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
  // No unique (switch, seq) (the log is partitioned by day, docs/partitions.md): the insert dedupes
  // under the switches' writer locks, taken here, against their last_seq, moved below in this transaction.
  await lockSeqWriters(tx, AIR_SWITCH_SEQ_WRITERS, unique.map((r) => r.airSwitchId));
  const inserted = await insertAirSwitchUplinks(tx, unique);
  await emitAll(tx, idListEvents('airSwitch.reading', inserted.map((row) => ({ tenantId: row.tenant_id, id: row.air_switch_id }))));
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
  for (const row of rowsOf<{ id: number; tenant_id: number; air_switch_id: number; circuit: number; state: string | null; trip_reason: string | null; energy_kwh: number | null;
    reading_seq: number | null; energy_total_kwh: number; energy_hour: Date | string | null; hour_power_max_w: number }>(
    await tx.execute(sql`
      select id, tenant_id, air_switch_id, circuit, state, trip_reason, energy_kwh, reading_seq, energy_total_kwh, energy_hour, hour_power_max_w from air_switch_circuits
      where air_switch_id = any(${sql.param(switchIds)}::int[]) order by id for update`))) {
    circuits.set(`${row.air_switch_id}:${row.circuit}`, {
      id: row.id, tenantId: row.tenant_id, airSwitchId: row.air_switch_id, circuit: row.circuit, state: row.state, tripReason: row.trip_reason,
      energyKwh: row.energy_kwh === null ? null : Number(row.energy_kwh), readingSeq: row.reading_seq,
      energyTotalKwh: Number(row.energy_total_kwh), energyHour: row.energy_hour === null ? null : new Date(row.energy_hour), hourPowerMaxW: Number(row.hour_power_max_w),
    });
  }
  const { rollups, alarms } = applyReadings(fresh, circuits);
  const late = assignTotals(rollups, circuits.values());
  await writeCircuits(tx, [...circuits.values()].filter((c) => c.changed));
  await writeRollups(tx, rollups, options.timeZone, late);
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
      leakage_ma = coalesce(v.leak, c.leakage_ma), temperature_c = coalesce(v.temp, c.temperature_c), reading_at = coalesce(v.at, c.reading_at),
      energy_total_kwh = v.total, energy_hour = v.ehour, hour_power_max_w = v.hmax
    from unnest(${param(changed, (c) => c.id)}::int[], ${param(changed, (c) => c.state)}::text[], ${param(changed, (c) => c.tripReason)}::text[],
      ${param(changed, (c) => c.readingSeq)}::int[], ${param(changed, (c) => r(c)?.energyKwh ?? null)}::float8[], ${param(changed, (c) => r(c)?.voltage ?? null)}::real[],
      ${param(changed, (c) => r(c)?.current ?? null)}::real[], ${param(changed, (c) => r(c)?.power ?? null)}::real[], ${param(changed, (c) => r(c)?.powerFactor ?? null)}::real[],
      ${param(changed, (c) => r(c)?.leakageMa ?? null)}::real[], ${param(changed, (c) => r(c)?.temperatureC ?? null)}::real[],
      ${param(changed, (c) => c.readingAt?.toISOString() ?? null)}::timestamptz[], ${param(changed, (c) => c.energyTotalKwh)}::float8[],
      ${param(changed, (c) => c.energyHour?.toISOString() ?? null)}::timestamptz[], ${param(changed, (c) => c.hourPowerMaxW)}::real[])
      as v(id, state, reason, seq, kwh, voltage, cur, power, pf, leak, temp, at, total, ehour, hmax)
    where c.id = v.id`);
}
