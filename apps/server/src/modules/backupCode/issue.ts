/**
 * Backup codes of stays (docs/stays.md "Backup codes"): issuing a ready pool entry (pool.ts)
 * to a checked-in stay whose guest's own code is still on its way to a lock, and retiring it once that
 * code is 正常 on the lock or the stay no longer holds the door (checked out, suspended, moved): its lock
 * user is deleted through the credential service (a queued command; the lock drops its password with
 * it). Issuing sends nothing: the entry is on the lock already and its expiringUser starts its clock at
 * the first use. Every function takes the caller's tenant transaction (row-level security).
 */
import { BACKUP_CODE_EXPIRING_MINUTES, type BackupCodeRecord, type IssuedBackupCode } from '@iot/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { backupCodes, credentials, locks, lockUsers, stays } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { ApiError, conflictError, fieldError } from '../../http/api-error.js';
import type { Actor } from '../credential/ops.js';
import { userOperation } from '../credential/users.js';
import { passwordDigits } from '../credential/views.js';
import { type DoorState, doorStates } from '../stay/doors.js';
import { doorWindow } from '../stay/rules.js';
import { entryReady } from './pool.js';

/**
 * The guest's own code is on the lock: user and password 正常, the user not frozen. Unlike the stays'
 * doorReady (stay/doors.ts), a card still on its way does not count: the guest can open with the code,
 * so no backup code is needed for it.
 */
export const guestCodeReady = (door: DoorState) => door.userState === 'normal' && door.credentialState === 'normal' && door.userStatus === 'normal';
const BUSY = new Set(['adding', 'modifying', 'deleting']);

async function lockNames(tx: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  return new Map((await tx.select({ id: locks.id, name: locks.name }).from(locks).where(inArray(locks.id, [...ids]))).map((lock) => [lock.id, lock.name]));
}

/** The oldest ready pool entry of `lockId`, locked (one taken by a concurrent issue is skipped); undefined when there is none. */
async function takeEntry(tx: Executor, lockId: number) {
  const [row] = await tx.select({ id: backupCodes.id }).from(backupCodes)
    .innerJoin(lockUsers, eq(lockUsers.id, backupCodes.lockUserId)).innerJoin(credentials, eq(credentials.id, backupCodes.credentialId))
    .where(and(eq(backupCodes.lockId, lockId), eq(backupCodes.state, 'pool'), entryReady)).orderBy(asc(backupCodes.id)).limit(1)
    .for('update', { of: backupCodes, skipLocked: true });
  return row;
}

/**
 * Issues a backup code to checked-in stay `stayId` on lock `lockId` (one of its room's), or on every lock
 * of its room where a guest's code is not 正常 yet; a lock where the stay holds an issued code already
 * gives that code again (nothing more is taken from the pool). 404 for a stay outside the tenant; 409 on
 * body.stayId when it is not checked in or no door waits; 400 on body.lockId for a lock outside its
 * room; 409 on body.lockId when a lock has no ready entry. `now` (ms) is injectable for tests.
 */
export async function issueBackupCodes(tx: Executor, actor: Actor, body: { stayId: number; lockId?: number }, now = Date.now()): Promise<{ stayId: number; codes: IssuedBackupCode[] }> {
  const [stay] = await tx.select().from(stays).where(eq(stays.id, body.stayId)).for('update');
  if (!stay) throw new ApiError('NOT_FOUND');
  if (stay.state !== 'CHECKED_IN') throw conflictError('body.stayId', '只能为已入住的住客发放备用密码', 'A backup code is issued only to a checked-in stay');
  const doors = (await doorStates(tx, [stay.id])).filter((door) => !door.released);
  let lockIds = [...new Set(doors.map((door) => door.lockId))];
  if (body.lockId !== undefined) {
    if (!lockIds.includes(body.lockId)) throw fieldError('body.lockId', '该门锁不在此入住的房间', "This lock is not a door of the stay's room");
    lockIds = [body.lockId];
  }
  const waiting = lockIds.filter((lockId) => doors.some((door) => door.lockId === lockId && !guestCodeReady(door)));
  if (waiting.length === 0) {
    throw conflictError(body.lockId === undefined ? 'body.stayId' : 'body.lockId', '住客密码已在门锁上生效，无需备用密码', "The guest's own code is on the lock already: no backup code is needed");
  }
  const names = await lockNames(tx, waiting);
  const validUntil = new Date(doorWindow(stay).validTo).toISOString();
  const codes: IssuedBackupCode[] = [];
  for (const lockId of waiting) {
    const row = (await heldCode(tx, stay.id, lockId)) ?? (await issueEntry(tx, actor.username, stay.id, lockId, now));
    const name = names.get(lockId) ?? `#${lockId}`;
    if (!row) throw conflictError('body.lockId', `门锁 ${name} 没有可用的备用密码（已用完或尚未装入门锁）`, `Lock ${name} has no backup code ready (all used, or not on the lock yet)`);
    codes.push({
      id: row.id, lockId, lockName: names.get(lockId) ?? '', code: await passwordDigits(tx, row.credentialId, lockId, actor.box.open),
      issuedAt: iso(row.issuedAt) as string, issuedBy: row.issuedBy ?? '', validUntil, expiringMinutes: BACKUP_CODE_EXPIRING_MINUTES,
    });
  }
  return { stayId: stay.id, codes };
}

/** The code stay `stayId` holds issued on lock `lockId`, if any. */
export async function heldCode(tx: Executor, stayId: number, lockId: number) {
  const [held] = await tx.select().from(backupCodes).where(and(eq(backupCodes.stayId, stayId), eq(backupCodes.lockId, lockId), eq(backupCodes.state, 'issued')));
  return held;
}

/**
 * Issues the oldest ready pool entry of lock `lockId` to stay `stayId` as `username` at `now` (ms); the
 * caller has checked the stay and the door. Returns the issued row, or undefined when the lock has no
 * ready entry (the manual route refuses with 409, the automatic pass skips the lock).
 */
export async function issueEntry(tx: Executor, username: string, stayId: number, lockId: number, now: number) {
  const entry = await takeEntry(tx, lockId);
  if (!entry) return undefined;
  const [row] = await tx.update(backupCodes).set({ state: 'issued', stayId, issuedAt: new Date(now), issuedBy: username }).where(eq(backupCodes.id, entry.id)).returning();
  return row;
}

/**
 * Retires backup code `id` if it is issued and its time has come: `synced` when every door the stay
 * holds on that lock is 正常 (its guests' own codes are there), `ended` when the stay is no longer
 * checked in or holds no door on that lock. Its lock user's delete is queued (a user still busy is left
 * for the next pass). Returns the lock whose pool lost the entry, or undefined when nothing changed.
 */
export async function retireIfDue(tx: Executor, actor: Actor, id: number, now = Date.now()): Promise<number | undefined> {
  const [code] = await tx.select().from(backupCodes).where(eq(backupCodes.id, id)).for('update');
  if (code?.state !== 'issued' || code.stayId === null) return undefined;
  const [stay] = await tx.select({ id: stays.id, state: stays.state }).from(stays).where(eq(stays.id, code.stayId));
  const doors = stay ? (await doorStates(tx, [stay.id])).filter((door) => door.lockId === code.lockId && !door.released) : [];
  const reason = stay?.state !== 'CHECKED_IN' || doors.length === 0 ? 'ended' : doors.every(guestCodeReady) ? 'synced' : undefined;
  if (!reason) return undefined;
  const [user] = await tx.select({ id: lockUsers.id, syncState: lockUsers.syncState }).from(lockUsers).where(eq(lockUsers.id, code.lockUserId));
  if (user && BUSY.has(user.syncState)) return undefined;
  if (user) await userOperation(tx, actor, { action: 'delete', id: user.id });
  await tx.update(backupCodes).set({ state: 'retired', retiredAt: new Date(now), retireReason: reason }).where(eq(backupCodes.id, id));
  return code.lockId;
}

/** The backup codes given to stay `stayId`, oldest first (never their digits); 404 for a stay outside the tenant. */
export async function stayBackupCodes(tx: Executor, stayId: number): Promise<BackupCodeRecord[]> {
  const [stay] = await tx.select({ id: stays.id }).from(stays).where(eq(stays.id, stayId));
  if (!stay) throw new ApiError('NOT_FOUND');
  const rows = await tx.select({ code: backupCodes, lockName: locks.name, userState: lockUsers.syncState }).from(backupCodes)
    .innerJoin(locks, eq(locks.id, backupCodes.lockId)).leftJoin(lockUsers, eq(lockUsers.id, backupCodes.lockUserId))
    .where(eq(backupCodes.stayId, stayId)).orderBy(asc(backupCodes.id));
  return rows.map(({ code, lockName, userState }) => ({
    id: code.id, stayId, lockId: code.lockId, lockName, state: code.state as BackupCodeRecord['state'],
    issuedAt: iso(code.issuedAt) as string, issuedBy: code.issuedBy ?? '', retiredAt: iso(code.retiredAt), retireReason: code.retireReason as BackupCodeRecord['retireReason'],
    userState: (userState ?? 'deleted') as BackupCodeRecord['userState'],
  }));
}
