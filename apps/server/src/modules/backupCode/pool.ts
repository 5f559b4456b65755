/**
 * The backup-code pool of a lock (docs/stays.md "Backup codes"; table backup_codes, owned by
 * this module). Each entry is a lock user of Matter type expiringUser (BACKUP_CODE_EXPIRING_MINUTES
 * after its first use) holding one password whose digits the credential service draws and seals; both
 * are added through the credential service, so each is a command in the outbox with its sync state,
 * and a sleeping lock takes them at a wake. An entry is ready to issue once its user and password are
 * 正常. Filling never writes the credential tables itself. Runs in the caller's tenant transaction.
 */
import { BACKUP_CODE_EXPIRING_MINUTES, BACKUP_CODE_POOL_DEFAULT, type BackupCodePool, FAILED_SYNC_STATES, protocol } from '@iot/contract';
import { and, count, eq, inArray, isNull, ne, notExists, notInArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { backupCodes, commands, credentials, deviceTypes, locks, lockUsers } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { addCredential } from '../credential/credentials.js';
import type { Actor } from '../credential/ops.js';
import { userOperation } from '../credential/users.js';
import { lockTypeJoin } from '../deviceType/rules.js';
import { serviceExpiredSql } from '../lockDevice/service-period.js';

/** Name of a pool entry's lock user, on the lock and in 用户管理. */
const POOL_USER_NAME = '备用密码';
/**
 * The fill adds an entry (two commands) only while the lock has at most this many commands QUEUED, so
 * it never brings the lock's queue (protocol.MAX_QUEUED_PER_DEVICE) past half: the rest stays free for
 * the operators and the stays.
 */
const FILL_QUEUE_LIMIT = protocol.MAX_QUEUED_PER_DEVICE / 2 - 2;
const FAILED = new Set<string | null>(FAILED_SYNC_STATES);

/** An entry's lock user and password are both 正常 (and the user is not frozen): it may be issued. */
export const entryReady = sql<boolean>`(${lockUsers.syncState} = 'normal' and ${lockUsers.status} = 'normal' and ${credentials.syncState} = 'normal')`;

/** A lock whose pool is short: its data centre, the pool size of its device type, entries it has, commands it has queued. */
export interface ShortPool {
  lockId: number;
  tenantId: number;
  size: number;
  pooled: number;
  queued: number;
}

/**
 * Locks that need entries (owner connection, every data centre): registered, not decommissioned, in a
 * room (`room` set), their service not ended (a granting command would be refused), fewer pool entries
 * whose lock user still exists than their device type's `backupCodePool`, and room in their queue. `only`: just these locks; `except`: not these (backing off).
 */
export async function shortPools(database: Database, options: { only?: readonly number[]; except?: readonly number[]; limit: number }): Promise<ShortPool[]> {
  const db = database.system;
  const pooled = db.select({ lockId: backupCodes.lockId, n: count().as('pooled_n') }).from(backupCodes)
    .innerJoin(lockUsers, eq(lockUsers.id, backupCodes.lockUserId)).where(eq(backupCodes.state, 'pool')).groupBy(backupCodes.lockId).as('pooled');
  const queued = db.select({ lockId: commands.lockId, n: count().as('queued_n') }).from(commands).where(eq(commands.state, 'QUEUED')).groupBy(commands.lockId).as('queued');
  const size = sql<number>`coalesce(${deviceTypes.backupCodePool}, ${BACKUP_CODE_POOL_DEFAULT})`.mapWith(Number);
  const pooledN = sql<number>`coalesce(${pooled.n}, 0)`.mapWith(Number);
  const queuedN = sql<number>`coalesce(${queued.n}, 0)`.mapWith(Number);
  return db.select({ lockId: locks.id, tenantId: locks.tenantId, size, pooled: pooledN, queued: queuedN }).from(locks)
    .leftJoin(deviceTypes, lockTypeJoin).leftJoin(pooled, eq(pooled.lockId, locks.id)).leftJoin(queued, eq(queued.lockId, locks.id))
    .where(and(
      ne(locks.room, ''), isNull(locks.decommissionedAt), isNull(locks.imeiReleasedAt), sql`not ${serviceExpiredSql}`,
      sql`${pooledN} < ${size}`, sql`${queuedN} <= ${FILL_QUEUE_LIMIT}`,
      ...(options.only ? [inArray(locks.id, [...options.only])] : []),
      ...(options.except?.length ? [notInArray(locks.id, [...options.except])] : []),
    )).orderBy(locks.id).limit(options.limit);
}

/**
 * Tops up the pool of lock `lockId` towards `size` entries, adding at most `max`: pool rows whose lock
 * user is gone (deleted on the lock, discarded in 用户管理) are dropped, then entries are added while the
 * lock's queue has room. Returns how many were added. Throws the credential service's refusals (409
 * CAPACITY_FULL, QUEUE_FULL, 402 SERVICE_EXPIRED, ...), which roll the caller's transaction back.
 */
export async function fillPool(tx: Executor, actor: Actor, lockId: number, size: number, max = size): Promise<number> {
  // The lock row first: two instances (or a sweep and a woken pass) filling the same pool count one after the other.
  await tx.select({ id: locks.id }).from(locks).where(eq(locks.id, lockId)).for('update');
  await tx.delete(backupCodes).where(and(eq(backupCodes.lockId, lockId), eq(backupCodes.state, 'pool'),
    notExists(tx.select({ one: sql`1` }).from(lockUsers).where(eq(lockUsers.id, backupCodes.lockUserId)))));
  const [pooled] = await tx.select({ n: count() }).from(backupCodes).where(and(eq(backupCodes.lockId, lockId), eq(backupCodes.state, 'pool')));
  const [queued] = await tx.select({ n: count() }).from(commands).where(and(eq(commands.lockId, lockId), eq(commands.state, 'QUEUED')));
  let added = 0;
  for (let have = pooled?.n ?? 0, inQueue = queued?.n ?? 0; have < size && inQueue <= FILL_QUEUE_LIMIT && added < max; have++, inQueue += 2) {
    const user = await userOperation(tx, actor, { action: 'add', lockId, name: POOL_USER_NAME, userType: 'expiringUser', expiringMinutes: BACKUP_CODE_EXPIRING_MINUTES });
    const password = await addCredential(tx, actor, { kind: 'password', lockId, lockUserId: user.record.id });
    await tx.insert(backupCodes).values({ tenantId: actor.tenantId, lockId, lockUserId: user.record.id, credentialId: password.record.id });
    added++;
  }
  return added;
}

/** The pool size of lock `lockId` (its device type's, or the default); 404 for a lock outside the tenant. */
export async function poolSizeOf(tx: Executor, lockId: number): Promise<number> {
  const [row] = await tx.select({ size: deviceTypes.backupCodePool }).from(locks).leftJoin(deviceTypes, lockTypeJoin).where(eq(locks.id, lockId));
  if (!row) throw new ApiError('NOT_FOUND');
  return row.size ?? BACKUP_CODE_POOL_DEFAULT;
}

/** The state of lock `lockId`'s pool (contract backupCodePool); 404 for a lock outside the tenant. */
export async function poolState(tx: Executor, lockId: number): Promise<BackupCodePool> {
  const size = await poolSizeOf(tx, lockId);
  const rows = await tx.select({ state: backupCodes.state, ready: entryReady, userState: lockUsers.syncState, credentialState: credentials.syncState })
    .from(backupCodes).innerJoin(lockUsers, eq(lockUsers.id, backupCodes.lockUserId)).leftJoin(credentials, eq(credentials.id, backupCodes.credentialId))
    .where(and(eq(backupCodes.lockId, lockId), inArray(backupCodes.state, ['pool', 'issued'])));
  const pool = rows.filter((row) => row.state === 'pool');
  const available = pool.filter((row) => row.ready).length;
  // A password removed by hand leaves its entry unusable: counted as failed (delete its user in 用户管理 to refill).
  const failed = pool.filter((row) => !row.ready && (row.credentialState === null || FAILED.has(row.userState) || FAILED.has(row.credentialState))).length;
  return { lockId, size, available, failed, installing: pool.length - available - failed, issued: rows.length - pool.length };
}
