/**
 * doorState and configReport uplinks -> the lock row (one multi-row UPDATE each, caller's transaction).
 * Only each lock's newest message (highest seq) of the batch is applied.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { StoredUplink, UplinkHandler } from '../uplink-handlers.js';

/** The uplink with the highest seq per lock. */
export function newestPerLock<T extends StoredUplink>(uplinks: readonly T[]): T[] {
  const newest = new Map<number, T>();
  for (const uplink of uplinks) {
    const seen = newest.get(uplink.lockId);
    if (!seen || uplink.message.seq > seen.message.seq) newest.set(uplink.lockId, uplink);
  }
  return [...newest.values()];
}

/** locks.door_state ('open' | 'closed') and locks.locked (bolt thrown). */
export const applyDoorStates: UplinkHandler<'doorState'> = async (tx, uplinks) => {
  const latest = newestPerLock(uplinks);
  if (latest.length === 0) return;
  await tx.execute(sql`
    update locks l set door_state = v.door, locked = v.locked
    from unnest(${sql.param(latest.map((u) => u.lockId))}::int[], ${sql.param(latest.map((u) => u.message.data.door))}::text[],
      ${sql.param(latest.map((u) => u.message.data.locked))}::bool[]) as v(lock_id, door, locked)
    where l.id = v.lock_id`);
};

/**
 * locks.config: the reported fields are merged over what was stored (a partial report keeps the rest);
 * heartbeat_interval_s (s) follows config.heartbeatIntervalS when present.
 */
export const applyConfigReports: UplinkHandler<'configReport'> = async (tx, uplinks) => {
  const latest = newestPerLock(uplinks);
  if (latest.length === 0) return;
  const configs = latest.map((u) => u.message.data.config as protocol.LockConfig);
  await tx.execute(sql`
    update locks l set config = coalesce(l.config, '{}'::jsonb) || v.config,
      heartbeat_interval_s = coalesce(v.interval_s, l.heartbeat_interval_s)
    from unnest(${sql.param(latest.map((u) => u.lockId))}::int[], ${sql.param(configs.map((c) => JSON.stringify(c)))}::jsonb[],
      ${sql.param(configs.map((c) => c.heartbeatIntervalS ?? null))}::int[]) as v(lock_id, config, interval_s)
    where l.id = v.lock_id`);
};
