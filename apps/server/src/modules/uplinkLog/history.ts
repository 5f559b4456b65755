/**
 * Past event uplinks for the demo's lived-in history (demo/history/; table `uplinks`, owned by this
 * module): like insertUplinks, but each row carries its own received time.
 */
import type { protocol } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { sql } from 'drizzle-orm';
import { numberArray, textArray } from '../../db/array-literal.js';
import { lockSeqKey, rowsOf } from '../../db/rows.js';

/** One past event uplink; receivedAt: ms since epoch. */
export interface PastUplink {
  tenantId: number;
  lockId: number;
  message: protocol.UplinkMessage;
  receivedAt: number;
}

/**
 * Inserts `rows` (owner connection) with one statement of array literals per 5,000 rows (as
 * logHeartbeat/history.ts); a (lock, seq) already stored is skipped (looked up: the log has no unique
 * (lock, seq), docs/partitions.md; the demo seeds one writer at a time). Returns the new rows' ids
 * keyed lockSeqKey.
 */
export async function insertUplinkHistory(db: Executor, rows: readonly PastUplink[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let start = 0; start < rows.length; start += 5000) {
    const chunk = rows.slice(start, start + 5000);
    const column = (pick: (row: PastUplink) => number) => numberArray(chunk.map(pick));
    const text = (pick: (row: PastUplink) => string) => textArray(chunk.map(pick));
    const inserted = await db.execute(sql`
      insert into uplinks (tenant_id, device_kind, lock_id, seq, msg_id, type, data, device_ts, received_at)
      select tenant_id, 'lock', lock_id, seq, msg_id, type, data, to_timestamp(device_ms / 1000.0), to_timestamp(received_ms / 1000.0)
      from unnest(${column((r) => r.tenantId)}::int[], ${column((r) => r.lockId)}::int[], ${column((r) => r.message.seq)}::int[],
        ${text((r) => r.message.msgId)}::text[], ${text((r) => r.message.type)}::text[], ${text((r) => JSON.stringify(r.message.data))}::jsonb[],
        ${column((r) => r.message.ts)}::float8[], ${column((r) => r.receivedAt)}::float8[])
        as v(tenant_id, lock_id, seq, msg_id, type, data, device_ms, received_ms)
      where not exists (select 1 from uplinks u where u.device_kind = 'lock' and u.lock_id = v.lock_id and u.seq = v.seq)
      returning id, lock_id, seq`);
    for (const row of rowsOf<{ id: string | number; lock_id: number; seq: number }>(inserted)) ids.set(lockSeqKey(row.lock_id, row.seq), Number(row.id));
  }
  return ids;
}
