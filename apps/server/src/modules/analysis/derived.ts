/**
 * Alarms the platform derives (docs/protocol.md "Derived alarms"), raised and cleared
 * through the alert lifecycle of modules/lockAlert, with the tenant's thresholds (thresholds.ts):
 * - forcedEntry: a doorState `open` with no successful unlock record (any method, mechanical key
 *   included) on the lock within forcedEntryS s before it (lock clock); cleared when the door closes.
 * - bruteForce: bruteForceAttempts failed attempts on one lock within bruteForceWindowS s, or one
 *   credential (method + slot the lock names) failing on bruteForceLocks locks of the tenant within the
 *   window; cleared by the job once a window passes without a repeat.
 * - silentLock: a lock the presence sweep holds offline whose last uplink is older than silentIntervals
 *   heartbeat intervals (its own interval: a sleeping NB-IoT lock that beats every hour is silent only
 *   after 3 hours); cleared by its next heartbeat.
 * - batteryCliff: forecast.ts.
 */
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { clearDerivedAlarms, type DerivedAlarm, raiseDerivedAlarms } from '../deviceAlert/lock.js';
import { thresholdsOf } from './thresholds.js';

/** A stored event uplink, as the gateway hands it over. */
interface EventUplink {
  lockId: number;
  tenantId: number;
  message: protocol.UplinkMessage;
}

const isoOf = (ms: number) => new Date(ms).toISOString();

/** Derives forcedEntry and bruteForce from a batch's stored event uplinks (after their handlers, same transaction). */
export async function deriveFromUplinks(tx: Tx, uplinks: readonly EventUplink[]): Promise<void> {
  const opened: EventUplink[] = [];
  const closed: number[] = [];
  const failed: (EventUplink & { message: Extract<protocol.UplinkMessage, { type: 'openRecord' }> })[] = [];
  for (const u of uplinks) {
    const { message } = u;
    if (message.type === 'doorState') (message.data.door === 'open' ? opened.push(u) : closed.push(u.lockId));
    else if (message.type === 'openRecord' && !message.data.success) failed.push(u as (typeof failed)[number]);
  }
  const alarms: DerivedAlarm[] = [];
  if (opened.length) alarms.push(...await forcedEntries(tx, opened));
  if (failed.length) alarms.push(...await bruteForcePerLock(tx, failed), ...await bruteForcePerCredential(tx, failed));
  // A door closing ends a forced entry; one opening again in the same batch raises it anew below.
  await clearDerivedAlarms(tx, 'forcedEntry', closed.filter((id) => !alarms.some((a) => a.lockId === id)));
  await raiseDerivedAlarms(tx, alarms);
}

async function forcedEntries(tx: Tx, opened: readonly EventUplink[]): Promise<DerivedAlarm[]> {
  const p = <V>(pick: (u: EventUplink) => V) => sql.param(opened.map(pick));
  const rows = rowsOf<{ lockId: number; tenantId: number; s: number }>(await tx.execute(sql`
    select v.lock_id as "lockId", v.tenant_id as "tenantId", th.forced_entry_s as s
    from unnest(${p((u) => u.lockId)}::int[], ${p((u) => u.tenantId)}::int[], ${p((u) => isoOf(u.message.ts))}::timestamptz[]) as v(lock_id, tenant_id, at)
    cross join lateral ${thresholdsOf(sql`v.tenant_id`)}
    where not exists (select 1 from open_records o where o.lock_id = v.lock_id and o.success
      and o.received_at > now() - interval '1 day'
      and o.lock_time between v.at - make_interval(secs => th.forced_entry_s) and v.at + interval '5 seconds')`));
  return rows.map((r) => ({ lockId: r.lockId, tenantId: r.tenantId, kind: 'forcedEntry', detail: `no unlock within ${r.s} s` }));
}

async function bruteForcePerLock(tx: Tx, failed: readonly EventUplink[]): Promise<DerivedAlarm[]> {
  const newest = new Map<number, EventUplink>();
  for (const u of failed) if ((newest.get(u.lockId)?.message.ts ?? -1) < u.message.ts) newest.set(u.lockId, u);
  const list = [...newest.values()];
  const p = <V>(pick: (u: EventUplink) => V) => sql.param(list.map(pick));
  const lockTime = (u: EventUplink) => isoOf(u.message.type === 'openRecord' ? u.message.data.lockTime : u.message.ts);
  const rows = rowsOf<{ lockId: number; tenantId: number; n: number; s: number }>(await tx.execute(sql`
    select v.lock_id as "lockId", v.tenant_id as "tenantId", count(*)::int as n, th.brute_force_window_s as s
    from unnest(${p((u) => u.lockId)}::int[], ${p((u) => u.tenantId)}::int[], ${p(lockTime)}::timestamptz[]) as v(lock_id, tenant_id, at)
    cross join lateral ${thresholdsOf(sql`v.tenant_id`)}
    join open_records o on o.lock_id = v.lock_id and not o.success and o.received_at > now() - interval '1 day'
      and o.lock_time > v.at - make_interval(secs => th.brute_force_window_s) and o.lock_time <= v.at
    group by v.lock_id, v.tenant_id, th.brute_force_attempts, th.brute_force_window_s
    having count(*) >= th.brute_force_attempts`));
  return rows.map((r) => ({ lockId: r.lockId, tenantId: r.tenantId, kind: 'bruteForce', detail: `${r.n} failed attempts within ${r.s} s` }));
}

async function bruteForcePerCredential(tx: Tx, failed: readonly (EventUplink & { message: Extract<protocol.UplinkMessage, { type: 'openRecord' }> })[]): Promise<DerivedAlarm[]> {
  const withSlot = failed.filter((u) => u.message.data.slot !== undefined);
  if (withSlot.length === 0) return [];
  const p = <V>(pick: (u: (typeof withSlot)[number]) => V) => sql.param(withSlot.map(pick));
  const rows = rowsOf<{ tenantId: number; method: string; slot: number; locks: number[] }>(await tx.execute(sql`
    select v.tenant_id as "tenantId", v.method, v.slot, array_agg(distinct o.lock_id) as locks
    from (select distinct * from unnest(${p((u) => u.tenantId)}::int[], ${p((u) => u.message.data.method)}::text[], ${p((u) => u.message.data.slot)}::int[])
      as x(tenant_id, method, slot)) as v
    cross join lateral ${thresholdsOf(sql`v.tenant_id`)}
    join open_records o on o.tenant_id = v.tenant_id and o.method = v.method and o.slot = v.slot and not o.success
      and o.received_at > now() - make_interval(secs => th.brute_force_window_s)
    group by v.tenant_id, v.method, v.slot, th.brute_force_locks
    having count(distinct o.lock_id) >= th.brute_force_locks`));
  return rows.flatMap((r) => r.locks.map((lockId) => ({
    lockId: Number(lockId), tenantId: r.tenantId, kind: 'bruteForce' as const, detail: `${r.method} #${r.slot} failed on ${r.locks.length} locks`,
  })));
}

/** Raises silentLock for locks held offline past silentIntervals x their interval (in the presence sweep's transaction). */
export async function raiseSilentLocks(tx: Tx): Promise<number> {
  const rows = rowsOf<{ lockId: number; tenantId: number }>(await tx.execute(sql`
    select l.id as "lockId", l.tenant_id as "tenantId" from locks l cross join lateral ${thresholdsOf(sql`l.tenant_id`)}
    where l.presence = 'offline' and l.decommissioned_at is null and l.enabled
      and coalesce(l.last_uplink_at, l.last_heartbeat_at) < now() - make_interval(secs => l.heartbeat_interval_s * th.silent_intervals)
      and not exists (select 1 from alerts a where a.lock_id = l.id and a.kind = 'silentLock' and a.state = 'active')`));
  return (await raiseDerivedAlarms(tx, rows.map((r) => ({ ...r, kind: 'silentLock', detail: null })))).length;
}

/** ms until the first offline lock becomes silent (raiseSilentLocks would raise it); undefined when none can. */
export async function nextSilentLockDueMs(db: Executor): Promise<number | undefined> {
  const [row] = rowsOf<{ ms: number | null }>(await db.execute(sql`
    select extract(epoch from min(coalesce(l.last_uplink_at, l.last_heartbeat_at) + make_interval(secs => l.heartbeat_interval_s * th.silent_intervals)) - now()) * 1000 as ms
    from locks l cross join lateral ${thresholdsOf(sql`l.tenant_id`)}
    where l.presence = 'offline' and l.decommissioned_at is null and l.enabled
      and not exists (select 1 from alerts a where a.lock_id = l.id and a.kind = 'silentLock' and a.state = 'active')`));
  return row?.ms == null ? undefined : Number(row.ms);
}

/** Clears silentLock of locks that reported again (the gateway, for locks whose heartbeat brought them online). */
export function clearSilentLocks(tx: Tx, lockIds: readonly number[]): Promise<number> {
  return clearDerivedAlarms(tx, 'silentLock', lockIds);
}

/** Clears bruteForce alerts not repeated within their tenant's window (the rollup job). */
export async function clearQuietBruteForce(tx: Tx): Promise<number> {
  const rows = rowsOf<{ lockId: number }>(await tx.execute(sql`
    select a.lock_id as "lockId" from alerts a cross join lateral ${thresholdsOf(sql`a.tenant_id`)}
    where a.device_kind = 'lock' and a.kind = 'bruteForce' and a.state = 'active' and a.last_at < now() - make_interval(secs => th.brute_force_window_s)`));
  return clearDerivedAlarms(tx, 'bruteForce', rows.map((r) => r.lockId));
}
