/**
 * Writes a batch of validated heartbeats in one transaction with two multi-row statements:
 * the heartbeat log (duplicates by (lock_id, seq) skipped) and the lock rows' latest readings.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.js';
import { numberArray, textArray } from './array-literal.js';

/** One heartbeat of an authenticated lock, ready to store. */
export interface HeartbeatRecord {
  lockId: number;
  tenantId: number;
  seq: number;
  /** Device clock, ms since epoch. */
  ts: number;
  data: protocol.HeartbeatData;
}

/**
 * Stores `records` in the caller's transaction (owner connection). The device clock travels as epoch
 * ms (float8) and is converted in SQL: parsing 500 ISO timestamps cost PGlite ~4 ms a batch; each
 * column is one array-literal parameter (array-literal.ts).
 * Per batch:
 * - `insert into heartbeats ... on conflict (lock_id, seq) do nothing`, so a redelivered uplink is
 *   stored once;
 * - `update locks`: last_heartbeat_at = last_uplink_at = now(), last_seq = greatest(last_seq, seq), and battery, rssi,
 *   snr, firmware_version, heartbeat_interval_s from the lock's newest message of the batch unless the
 *   lock already holds a newer seq (a late redelivery does not roll readings back).
 * Returns how many heartbeat rows were new. Throws when the database fails (the transaction rolls back).
 */
export async function storeHeartbeats(tx: Tx, records: readonly HeartbeatRecord[]): Promise<{ inserted: number }> {
  if (records.length === 0) return { inserted: 0 };
  // Newest message per lock: UPDATE ... FROM must match each lock at most once.
  const newest = new Map<number, HeartbeatRecord>();
  for (const record of records) {
    const seen = newest.get(record.lockId);
    if (!seen || record.seq > seen.seq) newest.set(record.lockId, record);
  }
  const latest = [...newest.values()];
  const column = (rows: readonly HeartbeatRecord[], pick: (record: HeartbeatRecord) => number) => numberArray(rows.map(pick));
  const texts = (rows: readonly HeartbeatRecord[], pick: (record: HeartbeatRecord) => string) => textArray(rows.map(pick));

  {
    const inserted = await tx.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts)
      select tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, to_timestamp(device_ts_ms / 1000.0)
      from unnest(
        ${column(records, (r) => r.tenantId)}::int[],
        ${column(records, (r) => r.lockId)}::int[],
        ${column(records, (r) => r.seq)}::int[],
        ${column(records, (r) => r.data.battery)}::int[],
        ${column(records, (r) => r.data.rssi)}::int[],
        ${column(records, (r) => r.data.snr)}::real[],
        ${texts(records, (r) => r.data.firmwareVersion)}::text[],
        ${column(records, (r) => r.ts)}::float8[]
      ) as v(tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts_ms)
      on conflict (lock_id, seq) do nothing`);
    await tx.execute(sql`
      update locks l set
        battery = case when v.seq >= coalesce(l.last_seq, -1) then v.battery else l.battery end,
        rssi = case when v.seq >= coalesce(l.last_seq, -1) then v.rssi else l.rssi end,
        snr = case when v.seq >= coalesce(l.last_seq, -1) then v.snr else l.snr end,
        firmware_version = case when v.seq >= coalesce(l.last_seq, -1) then v.firmware_version else l.firmware_version end,
        heartbeat_interval_s = case when v.seq >= coalesce(l.last_seq, -1) then v.interval_s else l.heartbeat_interval_s end,
        last_heartbeat_at = now(),
        last_uplink_at = now(),
        last_seq = greatest(l.last_seq, v.seq)
      from unnest(
        ${column(latest, (r) => r.lockId)}::int[],
        ${column(latest, (r) => r.seq)}::int[],
        ${column(latest, (r) => r.data.battery)}::int[],
        ${column(latest, (r) => r.data.rssi)}::int[],
        ${column(latest, (r) => r.data.snr)}::real[],
        ${texts(latest, (r) => r.data.firmwareVersion)}::text[],
        ${column(latest, (r) => r.data.intervalS)}::int[]
      ) as v(lock_id, seq, battery, rssi, snr, firmware_version, interval_s)
      where l.id = v.lock_id`);
    return { inserted: rowCount(inserted) };
  }
}

/**
 * Rows an execute() affected or returned, on either driver: node-postgres and drizzle's PGlite
 * session both set `rowCount` (inserted/updated rows, or rows returned by a SELECT / RETURNING).
 */
export function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; rowCount?: number | null };
  return r.rowCount ?? (Array.isArray(r.rows) ? r.rows.length : 0);
}
