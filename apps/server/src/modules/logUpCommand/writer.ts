/**
 * The uplink log's writer (上报日志; table `uplinks`, owned by this module): every event uplink
 * (all but heartbeats) as received. Called by the device gateway inside its batch transaction.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { lockSeqKey, rowsOf } from '../../db/rows.js';
import { emitAll, idListEvents } from '../../events/emit.js';

/** One validated event uplink of an authenticated lock. */
export interface UplinkLogEntry {
  lockId: number;
  tenantId: number;
  message: protocol.UplinkMessage;
}

/**
 * Inserts `entries` with one multi-row statement (owner connection); a redelivered (lock_id, seq) is
 * skipped, and so is a seq the lock already used for a heartbeat (one message per (lock, seq),
 * docs/protocol.md). Emits `lock.uplink` for the locks of new rows (docs/events.md). Returns the new
 * rows' ids keyed by lockSeqKey (absent: it was a duplicate).
 */
export async function insertUplinks(tx: Tx, entries: readonly UplinkLogEntry[]): Promise<Map<string, number>> {
  if (entries.length === 0) return new Map();
  const param = <V>(pick: (entry: UplinkLogEntry) => V) => sql.param(entries.map(pick));
  const result = await tx.execute(sql`
    insert into uplinks (tenant_id, lock_id, seq, msg_id, type, data, device_ts)
    select * from unnest(
      ${param((r) => r.tenantId)}::int[], ${param((r) => r.lockId)}::int[], ${param((r) => r.message.seq)}::int[],
      ${param((r) => r.message.msgId)}::text[], ${param((r) => r.message.type)}::text[],
      ${param((r) => JSON.stringify(r.message.data))}::jsonb[],
      ${param((r) => new Date(r.message.ts).toISOString())}::timestamptz[]) as v(tenant_id, lock_id, seq, msg_id, type, data, device_ts)
    where not exists (select 1 from heartbeats h where h.lock_id = v.lock_id and h.seq = v.seq)
    on conflict (lock_id, seq) do nothing
    returning id, lock_id, seq, tenant_id`);
  const rows = rowsOf<{ id: string | number; lock_id: number; seq: number; tenant_id: number }>(result);
  await emitAll(tx, idListEvents('lock.uplink', rows.map((row) => ({ tenantId: row.tenant_id, id: row.lock_id }))));
  return new Map(rows.map((row) => [lockSeqKey(row.lock_id, row.seq), Number(row.id)]));
}
