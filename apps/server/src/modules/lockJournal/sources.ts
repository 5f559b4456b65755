/**
 * Sources of the lock journal (门锁日志). Each returns at most `limit` entries of one lock in
 * [start, end], newest first; the route merges them. EXTENSION POINT: another log adds one function to
 * JOURNAL_SOURCE_FUNCTIONS (e.g. the command outbox: source `command`, type = command state).
 */
import type { JournalEntry } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { iso } from '../../db/sql.js';

export interface JournalRange {
  lockId: number;
  start: Date;
  end: Date;
  limit: number;
}
export type JournalSource = (tx: Tx, range: JournalRange) => Promise<JournalEntry[]>;

const rows = async <T>(tx: Tx, query: ReturnType<typeof sql>) => ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
const within = (column: string, r: JournalRange) =>
  sql`${sql.raw(column)} >= ${r.start.toISOString()}::timestamptz and ${sql.raw(column)} <= ${r.end.toISOString()}::timestamptz`;

/**
 * Heartbeats summarised per bucket of max(300 s, range / 48): count, battery min/max %, RSSI dBm / SNR dB
 * averages, the first and last heartbeat (`from`, ISO 8601 UTC). The entry's time is the bucket's LAST
 * heartbeat, so it never predates what it summarises and sorts among the other entries by what it saw.
 */
export const heartbeatSummaries: JournalSource = async (tx, r) => {
  const bucketS = Math.max(300, Math.ceil((r.end.getTime() - r.start.getTime()) / 1000 / 48));
  const found = await rows<{ first: Date; last: Date; n: number; bmin: number; bmax: number; rssi: string; snr: string }>(tx, sql`
    select min(received_at) as first, max(received_at) as last, count(*)::int as n,
      min(battery) as bmin, max(battery) as bmax, round(avg(rssi), 1) as rssi, round(avg(snr)::numeric, 1) as snr
    from heartbeats where lock_id = ${r.lockId} and ${within('received_at', r)}
    group by date_bin(make_interval(secs => ${bucketS}), received_at, ${r.start.toISOString()}::timestamptz) order by last desc limit ${r.limit}`);
  return found.map((row) => ({
    time: iso(row.last), source: 'heartbeats', type: 'summary',
    data: { count: row.n, batteryMin: row.bmin, batteryMax: row.bmax, rssiAvg: Number(row.rssi), snrAvg: Number(row.snr), bucketS, from: iso(row.first) },
  }));
};

/** Uplinks other than openRecord and alarm (those appear through their own sources). */
export const uplinkEntries: JournalSource = async (tx, r) => {
  const found = await rows<{ received_at: Date; type: string; data: Record<string, unknown>; seq: number }>(tx, sql`
    select received_at, type, data, seq from uplinks
    where device_kind = 'lock' and lock_id = ${r.lockId} and ${within('received_at', r)} and type not in ('openRecord', 'alarm')
    order by received_at desc, id desc limit ${r.limit}`);
  return found.map((row) => ({ time: iso(row.received_at), source: 'uplink', type: row.type, data: { ...row.data, seq: row.seq } }));
};

/** Unlock attempts at their receive time (the lock's own clock is data.lockTime). */
export const openRecordEntries: JournalSource = async (tx, r) => {
  const found = await rows<{ received_at: Date; lock_time: Date; method: string; success: boolean; slot: number | null; user_slot: number | null }>(tx, sql`
    select received_at, lock_time, method, success, slot, user_slot from open_records
    where lock_id = ${r.lockId} and ${within('received_at', r)} order by received_at desc, id desc limit ${r.limit}`);
  return found.map((row) => ({
    time: iso(row.received_at), source: 'openRecord', type: row.method,
    data: { success: row.success, slot: row.slot, userSlot: row.user_slot, lockTime: iso(row.lock_time) },
  }));
};

/** Alerts raised, cleared and acknowledged in the range. */
export const alertEntries: JournalSource = async (tx, r) => {
  const found = await rows<{ kind: string; severity: string; occurrences: number; detail: string | null; first_at: Date; cleared_at: Date | null; acknowledged_at: Date | null; acknowledged_by: string | null }>(tx, sql`
    select kind, severity, occurrences, detail, first_at, cleared_at, acknowledged_at, acknowledged_by from alerts
    where lock_id = ${r.lockId} and (${within('first_at', r)} or ${within('cleared_at', r)} or ${within('acknowledged_at', r)})
    order by last_at desc limit ${r.limit}`);
  const inRange = (time: Date | null) => time !== null && new Date(time) >= r.start && new Date(time) <= r.end;
  return found.flatMap((row) => {
    const data = { kind: row.kind, severity: row.severity, occurrences: row.occurrences, detail: row.detail };
    return [
      ...(inRange(row.first_at) ? [{ time: iso(row.first_at), source: 'alert', type: 'raised', data }] : []),
      ...(inRange(row.cleared_at) ? [{ time: iso(row.cleared_at as Date), source: 'alert', type: 'cleared', data }] : []),
      ...(inRange(row.acknowledged_at) ? [{ time: iso(row.acknowledged_at as Date), source: 'alert', type: 'acknowledged', data: { ...data, by: row.acknowledged_by } }] : []),
    ];
  });
};

/** Every source merged into the journal; add a line to add a source. */
export const JOURNAL_SOURCE_FUNCTIONS: JournalSource[] = [heartbeatSummaries, uplinkEntries, openRecordEntries, alertEntries];
