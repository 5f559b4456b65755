/**
 * Presence of locks (online / offline; presence has
 * one owner): the lock registry owns the `presence` column and is the only writer of its
 * transitions, each emitted as `lock.presence` (docs/events.md) with its transaction:
 * - online: a lock's first stored heartbeat after silence (markCameOnline, called by the ingest
 *   through applyHeartbeatReadings);
 * - offline: the presence sweep (sweepPresence) finds a lock whose heartbeats stopped for
 *   ONLINE_HEARTBEAT_FACTOR x its interval (the console's online rule). The sweep runs at the
 *   earliest time a lock online can fall silent (nextPresenceDueMs), never busily.
 * What must commit with an offline transition (the open platform's presence push, the silentLock
 * alarm) is a follower listed where the app is built (wiring.ts). Safe on several instances: each
 * update re-checks the row, so each transition is written, emitted and pushed once.
 */
import { ONLINE_HEARTBEAT_FACTOR } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { numberArray } from '../../db/array-literal.js';
import type { Database, Executor, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { emitAll } from '../../events/emit.js';
import { onlineSql } from './sql.js';

/** A lock that just went offline. */
export interface OfflineLock {
  id: number;
  tenantId: number;
  imei: string;
  /** ISO 8601, or null when it never beat. */
  lastHeartbeatAt: string | null;
}

/** What follows the sweep (wiring.ts presenceFollowers). */
export interface PresenceFollower {
  /** In the sweep's transaction, with the locks that just went offline (possibly none). */
  afterSweep(tx: Tx, offline: readonly OfflineLock[]): Promise<void>;
  /** ms until this follower next has something due (undefined: nothing). */
  nextDueMs?(db: Executor): Promise<number | undefined>;
}

const presenceEvents = (locks: readonly { id: number; tenantId: number }[], presence: 'online' | 'offline') =>
  locks.map((lock) => ({ name: 'lock.presence' as const, payload: { tenantId: lock.tenantId, lockId: lock.id, presence } }));

/** Marks `lockIds` (whose heartbeat was just stored) online where they were not; returns those that came online. */
export async function markCameOnline(tx: Tx, lockIds: readonly number[]): Promise<number[]> {
  if (lockIds.length === 0) return [];
  // The row lock orders this against the presence sweep, so each transition is announced once.
  const rows = rowsOf<{ id: number; tenantId: number }>(await tx.execute(sql`
    update locks set presence = 'online' where id = any(${numberArray(lockIds)}::int[]) and presence is distinct from 'online'
    returning id, tenant_id as "tenantId"`));
  await emitAll(tx, presenceEvents(rows, 'online'));
  return rows.map((row) => row.id);
}

/** Marks the locks announced online whose heartbeats stopped as offline (in `tx`), emitting each transition. */
export async function markSilentLocksOffline(tx: Tx): Promise<OfflineLock[]> {
  const rows = rowsOf<{ id: number; tenantId: number; imei: string; lastHeartbeatAt: Date | string | null }>(await tx.execute(sql`
    update locks set presence = 'offline'
    where presence = 'online' and not ${onlineSql}
    returning id, tenant_id as "tenantId", imei, last_heartbeat_at as "lastHeartbeatAt"`));
  await emitAll(tx, presenceEvents(rows, 'offline'));
  return rows.map((row) => ({ ...row, lastHeartbeatAt: row.lastHeartbeatAt === null ? null : new Date(row.lastHeartbeatAt).toISOString() }));
}

/** One sweep in one transaction: silent locks offline, then the followers; returns how many locks went offline. */
export async function sweepPresence(database: Database, followers: readonly PresenceFollower[]): Promise<number> {
  return database.transaction(async (tx) => {
    const gone = await markSilentLocksOffline(tx);
    for (const follower of followers) await follower.afterSweep(tx, gone);
    return gone.length;
  });
}

/** ms until the first lock online may fall silent, or a follower has something due; undefined when nothing can. */
export async function nextPresenceDueMs(db: Executor, followers: readonly PresenceFollower[]): Promise<number | undefined> {
  const [row] = rowsOf<{ ms: number | null }>(await db.execute(sql`
    select extract(epoch from min(last_heartbeat_at + make_interval(secs => heartbeat_interval_s * ${sql.raw(String(ONLINE_HEARTBEAT_FACTOR))})) - now()) * 1000 as ms
    from locks where presence = 'online'`));
  const due = [row?.ms == null ? undefined : Number(row.ms)];
  for (const follower of followers) due.push(await follower.nextDueMs?.(db));
  const known = due.filter((ms): ms is number => ms !== undefined);
  return known.length === 0 ? undefined : Math.min(...known);
}
