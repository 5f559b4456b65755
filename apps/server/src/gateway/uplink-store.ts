/**
 * Writes a batch of validated uplinks in one transaction (group commit): heartbeats through
 * storeHeartbeats; every other type into the uplink log (上报日志, (lock, seq) unique) and then to its
 * handler (uplink-handlers.ts). Every lock of the batch gets last_uplink_at = now() (one UPDATE per lock row): an NB-IoT lock is
 * reachable for protocol.WAKE_WINDOW_MS after any uplink, and last_seq = greatest(last_seq, its highest seq).
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type HeartbeatRecord, rowCount, storeHeartbeats } from './heartbeat-store.js';
import { type EventType, type StoredUplink, type UplinkHandlers, uplinkHandlers } from './uplink-handlers.js';

/** One validated uplink of an authenticated lock. */
export interface UplinkRecord {
  lockId: number;
  tenantId: number;
  imei: string;
  message: protocol.UplinkMessage;
}

/** Stores `records`; returns how many were new. Throws (storing nothing) when the database fails. */
export async function storeUplinks(database: Database, records: readonly UplinkRecord[], handlers: UplinkHandlers = uplinkHandlers): Promise<{ inserted: number }> {
  if (records.length === 0) return { inserted: 0 };
  const heartbeats: HeartbeatRecord[] = [];
  const events: UplinkRecord[] = [];
  for (const record of records) {
    if (record.message.type === 'heartbeat') {
      heartbeats.push({ lockId: record.lockId, tenantId: record.tenantId, seq: record.message.seq, ts: record.message.ts, data: record.message.data });
    } else {
      events.push(record);
    }
  }
  const param = <V>(pick: (record: UplinkRecord) => V) => sql.param(events.map(pick));
  return database.transaction(async (tx) => {
    let inserted = heartbeats.length ? (await storeHeartbeats(tx, heartbeats)).inserted : 0;
    if (events.length) {
      const result = await tx.execute(sql`
        insert into uplinks (tenant_id, lock_id, seq, msg_id, type, data, device_ts)
        select * from unnest(
          ${param((r) => r.tenantId)}::int[], ${param((r) => r.lockId)}::int[], ${param((r) => r.message.seq)}::int[],
          ${param((r) => r.message.msgId)}::text[], ${param((r) => r.message.type)}::text[],
          ${param((r) => JSON.stringify(r.message.data))}::jsonb[],
          ${param((r) => new Date(r.message.ts).toISOString())}::timestamptz[])
        on conflict (lock_id, seq) do nothing
        returning id, lock_id, seq`);
      const rows = (result as unknown as { rows: { id: string | number; lock_id: number; seq: number }[] }).rows;
      inserted += rowCount(result);
      const idOf = new Map(rows.map((row) => [`${row.lock_id}:${row.seq}`, Number(row.id)]));
      const byType = new Map<EventType, StoredUplink[]>();
      for (const record of events) {
        const uplinkId = idOf.get(`${record.lockId}:${record.message.seq}`);
        if (uplinkId === undefined) continue;
        const type = record.message.type as EventType;
        byType.set(type, [...(byType.get(type) ?? []), { uplinkId, ...record }]);
      }
      for (const [type, stored] of byType) await (handlers[type] as ((tx: unknown, u: StoredUplink[]) => Promise<void>) | undefined)?.(tx, stored);
    }
    // Heartbeat locks got last_uplink_at and last_seq in storeHeartbeats' own UPDATE (one write per lock
    // row and batch: PGlite pays per row). Event uplinks raise them here, so a restarted device
    // (simulator: lastSeq + 1) never reuses a seq.
    const maxSeq = new Map<number, number>();
    for (const r of events) maxSeq.set(r.lockId, Math.max(maxSeq.get(r.lockId) ?? -1, r.message.seq));
    if (maxSeq.size > 0) {
      await tx.execute(sql`
        update locks l set last_uplink_at = now(), last_seq = greatest(l.last_seq, v.seq)
        from unnest(${sql.param([...maxSeq.keys()])}::int[], ${sql.param([...maxSeq.values()])}::int[]) as v(id, seq)
        where l.id = v.id`);
    }
    return { inserted };
  });
}
