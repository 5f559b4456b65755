/**
 * Past unlock records for the demo's lived-in history (demo/history/; table `open_records`, owned by
 * this module): like storeOpenRecords, but each row carries its own received time.
 */
import type { protocol } from '@iot/contract';
import type { Executor } from '../../db/client.js';
import { sql } from 'drizzle-orm';
import { numberArray, textArray } from '../../db/array-literal.js';

/** One past unlock record (its uplink's row id); receivedAt: ms since epoch. */
export interface PastOpenRecord {
  tenantId: number;
  lockId: number;
  uplinkId: number;
  data: protocol.OpenRecordData;
  receivedAt: number;
}

/** Inserts `rows` (owner connection), one statement of array literals per 5,000 rows (as logHeartbeat/history.ts). */
export async function insertOpenRecordHistory(db: Executor, rows: readonly PastOpenRecord[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 5000) {
    const chunk = rows.slice(start, start + 5000);
    const column = (pick: (row: PastOpenRecord) => number) => numberArray(chunk.map(pick));
    // A missing slot travels as -1 (array literals of numbers have no NULL) and becomes null again.
    await db.execute(sql`
      insert into open_records (tenant_id, lock_id, uplink_id, method, slot, user_slot, success, lock_time, received_at)
      select tenant_id, lock_id, uplink_id, method, nullif(slot, -1), nullif(user_slot, -1), success, to_timestamp(lock_ms / 1000.0), to_timestamp(received_ms / 1000.0)
      from unnest(${column((r) => r.tenantId)}::int[], ${column((r) => r.lockId)}::int[], ${column((r) => r.uplinkId)}::bigint[],
        ${textArray(chunk.map((r) => r.data.method))}::text[], ${column((r) => r.data.slot ?? -1)}::int[], ${column((r) => r.data.userSlot ?? -1)}::int[],
        ${textArray(chunk.map((r) => String(r.data.success)))}::bool[], ${column((r) => r.data.lockTime)}::float8[], ${column((r) => r.receivedAt)}::float8[])
        as v(tenant_id, lock_id, uplink_id, method, slot, user_slot, success, lock_ms, received_ms)`);
  }
}
