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
import { LOCK_SEQ_WRITERS, lockSeqWriters } from '../../db/seq-writers.js';
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
 * (docs/protocol.md: one message per (lock, seq), whatever its type). Returns the keys (lockSeqKey) of
 * the rows that were new, so that only a new heartbeat moves the lock's readings and is pushed, and
 * emits `lock.heartbeat` for their locks (docs/events.md, one notification per data centre and batch);
 * throws when the database fails (the caller's transaction rolls back).
 *
 * Dedupe without a unique (lock_id, seq): the table is partitioned by day of received_at and a unique
 * index of a partitioned table must hold the partition key, while a redelivery arrives later (a device
 * resends an unacknowledged message after reconnecting, possibly days later) and so would land in
 * another partition. Checking every partition's (lock_id, seq) index for every row would cost a probe
 * per day of retention, mostly into cold pages. Instead: seqs strictly increase per device, also
 * across restarts (docs/protocol.md), and every writer of heartbeats moves locks.last_seq to the
 * highest seq stored in the same transaction (applyHeartbeatReadings; the demo history's readings), so
 * a seq above last_seq is new without looking; only a seq at or below it (a redelivery or a late,
 * out-of-order message: rare) or of a lock without last_seq is looked up in heartbeats_lock_seq and
 * uplinks_lock_seq across the partitions (the uplink log moves last_seq too). The unique index also
 * made concurrent writers of one (lock, seq) wait for each other; the per-lock writer lock
 * (db/seq-writers.ts), taken before the insert, does that now (the insert's snapshot then sees what
 * the other writer committed). Duplicates within `records`: the
 * first wins, as before. The device clock travels as epoch ms (float8) and is converted in SQL (parsing
 * 500 ISO timestamps cost PGlite ~4 ms a batch); each column is one array-literal parameter
 * (db/array-literal.ts).
 */
export async function insertHeartbeats(tx: Tx, records: readonly HeartbeatRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const column = (pick: (record: HeartbeatRecord) => number) => numberArray(records.map(pick));
  await lockSeqWriters(tx, LOCK_SEQ_WRITERS, records.map((r) => r.lockId));
  const inserted = await tx.execute(sql`
    insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts)
    select v.tenant_id, v.lock_id, v.seq, v.battery, v.rssi, v.snr, v.firmware_version, to_timestamp(v.device_ts_ms / 1000.0)
    from (
      select distinct on (lock_id, seq) * from unnest(
        ${column((r) => r.tenantId)}::int[],
        ${column((r) => r.lockId)}::int[],
        ${column((r) => r.seq)}::int[],
        ${column((r) => r.data.battery)}::int[],
        ${column((r) => r.data.rssi)}::int[],
        ${column((r) => r.data.snr)}::real[],
        ${textArray(records.map((r) => r.data.firmwareVersion))}::text[],
        ${column((r) => r.ts)}::float8[]
      ) with ordinality as u(tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts_ms, ord)
      order by lock_id, seq, ord
    ) v
    left join locks l on l.id = v.lock_id
    where case when v.seq > l.last_seq then true
      else not exists (select 1 from heartbeats h where h.lock_id = v.lock_id and h.seq = v.seq)
        and not exists (select 1 from uplinks u where u.device_kind = 'lock' and u.lock_id = v.lock_id and u.seq = v.seq) end
    order by v.ord
    returning lock_id, seq, tenant_id`);
  const rows = rowsOf<{ lock_id: number; seq: number; tenant_id: number }>(inserted);
  await emitAll(tx, idListEvents('lock.heartbeat', rows.map((row) => ({ tenantId: row.tenant_id, id: row.lock_id }))));
  return new Set(rows.map((row) => lockSeqKey(row.lock_id, row.seq)));
}
