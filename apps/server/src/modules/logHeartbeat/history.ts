/**
 * Past heartbeats for the demo's lived-in history (demo/history/; table `heartbeats`, owned by this
 * module). Unlike insertHeartbeats (the gateway's live path) the rows carry their own received time.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { heartbeats } from '../../db/schema.js';
import { numberArray, textArray } from '../../db/array-literal.js';

/** One past heartbeat; times in ms since epoch, battery %, rssi dBm, snr dB. */
export interface PastHeartbeat {
  tenantId: number;
  lockId: number;
  seq: number;
  battery: number;
  rssi: number;
  snr: number;
  firmwareVersion: string;
  deviceTs: number;
  receivedAt: number;
}

/** True when the heartbeat log holds any row (the demo then has history and seeds none). */
export async function hasHeartbeats(db: Executor): Promise<boolean> {
  const rows = await db.select({ one: sql<number>`1` }).from(heartbeats).limit(1);
  return rows.length > 0;
}

/**
 * Inserts `rows` (owner connection) with one statement of array literals per 5,000 rows, as the live
 * path does (db/array-literal.ts: row-by-row parameters cost PGlite ~0.6 ms a row); a (lock, seq)
 * already stored is skipped (looked up across the partitions: no unique index can span them, see
 * insertHeartbeats; the demo's history is small and written once).
 */
export async function insertHeartbeatHistory(db: Executor, rows: readonly PastHeartbeat[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 5000) {
    const chunk = rows.slice(start, start + 5000);
    const column = (pick: (row: PastHeartbeat) => number) => numberArray(chunk.map(pick));
    await db.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, to_timestamp(device_ms / 1000.0), to_timestamp(received_ms / 1000.0)
      from (select distinct on (lock_id, seq) * from unnest(${column((r) => r.tenantId)}::int[], ${column((r) => r.lockId)}::int[], ${column((r) => r.seq)}::int[],
        ${column((r) => r.battery)}::int[], ${column((r) => r.rssi)}::int[], ${column((r) => r.snr)}::real[],
        ${textArray(chunk.map((r) => r.firmwareVersion))}::text[], ${column((r) => r.deviceTs)}::float8[], ${column((r) => r.receivedAt)}::float8[])
        with ordinality as u(tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ms, received_ms, ord)
        order by lock_id, seq, ord) v
      where not exists (select 1 from heartbeats h where h.lock_id = v.lock_id and h.seq = v.seq)
      order by v.ord`); // ids in the rows' order: tenant-wide lists order by id
  }
}
