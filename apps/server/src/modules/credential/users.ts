/**
 * Lock users (spec /iot/v1/zg/userOperation): add, modify, freeze, unfreeze, delete; retry
 * and discard of a failed one. Each operation sets the row's sync state and pending action and queues
 * the userOperation that carries it; sync.ts settles the state when the command finishes. The new
 * values (name, window, status) are written at once and shown with the "modifying" state.
 */
import { type CredentialAction, type CredentialRule, type LockUserRecord, type UserType, type userOperationBody, userTypeAfterSchedule } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { lockUsers } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { ACTIVE_STATE, type Actor, checkIdle, isFailed, logOperation, type PendingAction, send, userDownlink } from './ops.js';
import { findLock, userRecord } from './repo.js';
import { checkCapacity, checkUserType, checkValidity, freeSlot } from './rules.js';

type Body = z.output<typeof userOperationBody>;
const date = (msValue: number | undefined | null) => (msValue == null ? null : new Date(msValue));

/** The user row of `id` in the tenant, locked; 404 otherwise. */
export async function lockedUser(tx: Executor, id: number) {
  const [row] = await tx.select().from(lockUsers).where(eq(lockUsers.id, id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Sets the pending action + state of a user row and queues its command; returns the lock id. */
export async function dispatchUser(tx: Executor, actor: Actor, id: number, action: PendingAction, logAction: CredentialAction = action): Promise<number> {
  const [row] = await tx.update(lockUsers).set({ pendingAction: action, syncState: ACTIVE_STATE[action], updatedAt: sql`now()` })
    .where(eq(lockUsers.id, id)).returning();
  if (!row) throw new ApiError('NOT_FOUND');
  const command = await send(tx, actor, row.lockId, userDownlink(row), { subject: 'user', action: logAction, rowId: row.id, holderName: row.name });
  await tx.update(lockUsers).set({ lastCommandId: command.id }).where(eq(lockUsers.id, id));
  return row.lockId;
}

/** Runs one userOperation; returns the record and the lock to signal. */
export async function userOperation(tx: Executor, actor: Actor, body: Body): Promise<{ record: LockUserRecord; lockId: number }> {
  if (body.action === 'add') {
    const lock = await findLock(tx, { lockId: body.lockId }, true);
    const window = checkValidity(lock.rules, body.validFrom, body.validTo);
    const kind = checkUserType(lock.rules, { userType: 'unrestrictedUser', credentialRule: 'single', expiringMinutes: null }, body);
    await checkCapacity(tx, lock, 'users');
    const userSlot = await freeSlot(tx, lock, 'users');
    const [row] = await tx.insert(lockUsers).values({
      tenantId: actor.tenantId, lockId: lock.id, userSlot, name: body.name, phone: body.phone ?? null,
      validFrom: date(window.validFrom), validTo: date(window.validTo), ...kind, syncState: 'adding', pendingAction: 'add', createdBy: actor.username,
    }).returning({ id: lockUsers.id });
    await dispatchUser(tx, actor, row?.id as number, 'add');
    return { record: await userRecord(tx, row?.id as number), lockId: lock.id };
  }
  const row = await lockedUser(tx, body.id);
  checkIdle(row, body.action);
  if (body.action === 'modify') {
    const lock = await findLock(tx, { lockId: row.lockId });
    const window = checkValidity(lock.rules, body.validFrom, body.validTo);
    const kind = checkUserType(lock.rules, { userType: row.userType as UserType, credentialRule: row.credentialRule as CredentialRule, expiringMinutes: row.expiringMinutes }, body);
    await tx.update(lockUsers).set({
      ...kind,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.phone !== undefined ? { phone: body.phone } : {}),
      ...(window.validFrom !== undefined ? { validFrom: date(window.validFrom) } : {}),
      ...(window.validTo !== undefined ? { validTo: date(window.validTo) } : {}),
    }).where(eq(lockUsers.id, row.id));
  } else if (body.action === 'freeze' || body.action === 'unfreeze') {
    await tx.update(lockUsers).set({ status: body.action === 'freeze' ? 'frozen' : 'normal' }).where(eq(lockUsers.id, row.id));
  }
  await dispatchUser(tx, actor, row.id, body.action);
  return { record: await userRecord(tx, row.id), lockId: row.lockId };
}

/** Re-sends the failed operation of a user (409 NOT_FAILED otherwise). */
export async function retryUser(tx: Executor, actor: Actor, id: number): Promise<{ record: LockUserRecord; lockId: number }> {
  const row = await lockedUser(tx, id);
  if (!isFailed(row.syncState)) throw new ApiError('NOT_FAILED');
  const lockId = await dispatchUser(tx, actor, id, row.pendingAction as PendingAction, 'retry');
  return { record: await userRecord(tx, id), lockId };
}

/** Deletes the platform row of a failed user (and its credential rows) without sending anything. */
export async function discardUser(tx: Executor, actor: Actor, id: number): Promise<{ id: number }> {
  const row = await lockedUser(tx, id);
  if (!isFailed(row.syncState)) throw new ApiError('NOT_FAILED');
  await tx.execute(sql`delete from credentials where lock_user_id = ${id}`);
  await tx.delete(lockUsers).where(eq(lockUsers.id, id));
  await logOperation(tx, actor, row.lockId, { subject: 'user', action: 'discard', rowId: id, holderName: row.name });
  return { id };
}

/**
 * A schedule was set for the user: the user type changes as the lock changes it itself
 * (contract userTypeAfterSchedule, Matter 5.2.4.4: an unrestricted user becomes schedule-restricted).
 * Called by the schedule module in its transaction; nothing is sent.
 */
export async function adjustUserTypeForSchedule(tx: Executor, id: number): Promise<void> {
  const [row] = await tx.select({ userType: lockUsers.userType }).from(lockUsers).where(eq(lockUsers.id, id));
  if (!row) return;
  const next = userTypeAfterSchedule(row.userType as UserType);
  if (next !== row.userType) await tx.update(lockUsers).set({ userType: next, updatedAt: sql`now()` }).where(eq(lockUsers.id, id));
}
