/** openRecord uplinks -> open_records (开锁日志), one multi-row insert in the caller's transaction. */
import { sql } from 'drizzle-orm';
import type { UplinkHandler } from '../uplink-handlers.js';

/** Inserts one open_records row per uplink (uplink_id links it to its uplinks row; lock_time from data.lockTime, ms). */
export const storeOpenRecords: UplinkHandler<'openRecord'> = async (tx, uplinks) => {
  if (uplinks.length === 0) return;
  const param = <V>(pick: (u: (typeof uplinks)[number]) => V) => sql.param(uplinks.map(pick));
  await tx.execute(sql`
    insert into open_records (tenant_id, lock_id, uplink_id, method, slot, user_slot, success, lock_time)
    select * from unnest(
      ${param((u) => u.tenantId)}::int[], ${param((u) => u.lockId)}::int[], ${param((u) => u.uplinkId)}::bigint[],
      ${param((u) => u.message.data.method)}::text[], ${param((u) => u.message.data.slot ?? null)}::int[],
      ${param((u) => u.message.data.userSlot ?? null)}::int[], ${param((u) => u.message.data.success)}::bool[],
      ${param((u) => new Date(u.message.data.lockTime).toISOString())}::timestamptz[])`);
};
