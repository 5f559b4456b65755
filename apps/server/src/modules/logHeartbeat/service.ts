/**
 * The heartbeat log's writer (心跳日志; table `heartbeats`, owned by this module). Called by the device
 * gateway inside its batch transaction; the lock rows' latest readings are lockDevice's
 * (applyHeartbeatReadings).
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { numberArray, textArray } from '../../db/array-literal.js';
import type { Tx } from '../../db/client.js';
import { lockSeqKey, rowsOf } from '../../db/rows.js';
import { emitAll, idListEvents } from '../../events/emit.js';

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
 * Inserts `records` in the caller's transaction (owner connection) with one multi-row statement;
 * a redelivered (lock_id, seq) is skipped, and so is a seq the lock already used for an event uplink
 * (docs/protocol.md: one message per (lock, seq), whatever its type). The device clock travels as epoch ms (float8) and is
 * converted in SQL (parsing 500 ISO timestamps cost PGlite ~4 ms a batch); each column is one
 * array-literal parameter (db/array-literal.ts). Returns the keys (lockSeqKey) of the rows that were
 * new, so that only a new heartbeat moves the lock's readings and is pushed, and emits `lock.heartbeat`
 * for their locks (docs/events.md, one notification per data centre and batch); throws when the database
 * fails (the caller's transaction rolls back).
 */
export async function insertHeartbeats(tx: Tx, records: readonly HeartbeatRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const column = (pick: (record: HeartbeatRecord) => number) => numberArray(records.map(pick));
  const inserted = await tx.execute(sql`
    insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts)
    select tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, to_timestamp(device_ts_ms / 1000.0)
    from unnest(
      ${column((r) => r.tenantId)}::int[],
      ${column((r) => r.lockId)}::int[],
      ${column((r) => r.seq)}::int[],
      ${column((r) => r.data.battery)}::int[],
      ${column((r) => r.data.rssi)}::int[],
      ${column((r) => r.data.snr)}::real[],
      ${textArray(records.map((r) => r.data.firmwareVersion))}::text[],
      ${column((r) => r.ts)}::float8[]
    ) as v(tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts_ms)
    where not exists (select 1 from uplinks u where u.lock_id = v.lock_id and u.seq = v.seq)
    on conflict (lock_id, seq) do nothing
    returning lock_id, seq, tenant_id`);
  const rows = rowsOf<{ lock_id: number; seq: number; tenant_id: number }>(inserted);
  await emitAll(tx, idListEvents('lock.heartbeat', rows.map((row) => ({ tenantId: row.tenant_id, id: row.lock_id }))));
  return new Set(rows.map((row) => lockSeqKey(row.lock_id, row.seq)));
}
