/** The open-record writer (开锁日志; table `open_records`, owned by this module), called by the device gateway. */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';

/** A stored openRecord uplink (uplinkId: its row in the uplink log). */
interface OpenRecordUplink {
  uplinkId: number;
  lockId: number;
  tenantId: number;
  message: Extract<protocol.UplinkMessage, { type: 'openRecord' }>;
}

/**
 * Inserts one open_records row per uplink in the caller's transaction, one multi-row statement
 * (uplink_id links it to its uplinks row; lock_time from data.lockTime, ms since epoch; refusal and
 * operator as the lock reports them).
 */
export async function storeOpenRecords(tx: Tx, uplinks: readonly OpenRecordUplink[]): Promise<void> {
  if (uplinks.length === 0) return;
  const param = <V>(pick: (u: OpenRecordUplink) => V) => sql.param(uplinks.map(pick));
  await tx.execute(sql`
    insert into open_records (tenant_id, lock_id, uplink_id, method, slot, user_slot, success, lock_time, refusal, operator)
    select * from unnest(
      ${param((u) => u.tenantId)}::int[], ${param((u) => u.lockId)}::int[], ${param((u) => u.uplinkId)}::bigint[],
      ${param((u) => u.message.data.method)}::text[], ${param((u) => u.message.data.slot ?? null)}::int[],
      ${param((u) => u.message.data.userSlot ?? null)}::int[], ${param((u) => u.message.data.success)}::bool[],
      ${param((u) => new Date(u.message.data.lockTime).toISOString())}::timestamptz[],
      ${param((u) => u.message.data.refusal ?? null)}::text[], ${param((u) => u.message.data.operator ?? null)}::text[])`);
}
