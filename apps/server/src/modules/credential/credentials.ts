/**
 * Passwords, temporary passwords, cards and fingerprints on a lock: add and delete after
 * the rules (rules.ts), retry and discard of a failed one. A row is written with its sync state and
 * pending action, then the command carrying it is queued (ops.ts); sync.ts settles the state.
 * Password digits are sealed before the row is written and never returned.
 */
import type { CredentialAction, CredentialKind, CredentialRecord } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { credentials, lockUsers } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { ACTIVE_STATE, type Actor, checkIdle, credentialDownlink, isFailed, logOperation, send, subjectOf } from './ops.js';
import { credentialRecord, findLock } from './repo.js';
import { checkCapacity, checkDigits, checkDuplicateCard, checkDuplicateDigits, checkValidity, drawDigits, freeSlot, ONE_TIME_DEFAULT_MS } from './rules.js';

export interface AddInput {
  kind: CredentialKind;
  lockId: number;
  lockUserId?: number;
  password?: string;
  oneTime?: boolean;
  validFrom?: string;
  validTo?: string;
  cardNumber?: string;
  reversed?: boolean;
}
export interface Done {
  record: CredentialRecord;
  lockId: number;
}
const TABLE = { password: 'passwords', tempPassword: 'passwords', card: 'cards', fingerprint: 'fingerprints' } as const;

/** The credential row of `id` in the tenant, locked; 404 otherwise. */
export async function lockedCredential(tx: Executor, id: number, kinds: readonly CredentialKind[]) {
  const [row] = await tx.select().from(credentials).where(eq(credentials.id, id)).for('update');
  if (!row || !kinds.includes(row.kind as CredentialKind)) throw new ApiError('NOT_FOUND');
  return row;
}

/** Sets the pending action + state of a credential row and queues its command; returns the command id. */
export async function dispatchCredential(tx: Executor, actor: Actor, id: number, action: 'add' | 'modify' | 'delete', logAction: CredentialAction = action): Promise<number> {
  const [row] = await tx.update(credentials).set({ pendingAction: action, syncState: ACTIVE_STATE[action], updatedAt: sql`now()` })
    .where(eq(credentials.id, id)).returning();
  if (!row) throw new ApiError('NOT_FOUND');
  const [holder] = row.lockUserId ? await tx.select({ name: lockUsers.name }).from(lockUsers).where(eq(lockUsers.id, row.lockUserId)) : [];
  const command = await send(tx, actor, row.lockId, credentialDownlink(row, actor.box), {
    subject: subjectOf(row.kind), action: logAction, rowId: row.id, kind: row.kind, slot: row.slot, holderName: holder?.name ?? null,
  });
  await tx.update(credentials).set({ lastCommandId: command.id }).where(eq(credentials.id, id));
  return command.id;
}

/** The holder of a new credential: a user of the same lock not being deleted (400 otherwise). */
async function holderOf(tx: Executor, lockId: number, lockUserId: number | undefined) {
  if (lockUserId === undefined) return undefined;
  const [user] = await tx.select().from(lockUsers).where(eq(lockUsers.id, lockUserId));
  if (!user || user.lockId !== lockId || user.pendingAction === 'delete') {
    throw fieldError('body.lockUserId', '该门锁上没有此用户', 'No such user on this lock');
  }
  return user;
}

/** Checks the rules, writes the row (state adding) and queues its add. */
export async function addCredential(tx: Executor, actor: Actor, input: AddInput): Promise<Done> {
  const lock = await findLock(tx, { lockId: input.lockId }, true);
  const holder = await holderOf(tx, lock.id, input.lockUserId);
  if (input.kind === 'fingerprint' && !holder) throw fieldError('body.lockUserId', '指纹须属于一个用户', 'A fingerprint needs a lock user');
  let window: { validFrom?: number; validTo?: number } = {};
  if (input.kind === 'tempPassword') {
    if (!input.oneTime && !input.validTo) throw fieldError('body.validTo', '临时密码须设置结束时间', 'A temporary password needs validTo');
    window = checkValidity(lock.rules, input.validFrom, input.validTo);
    if (input.oneTime && window.validTo === undefined) window = { validFrom: window.validFrom ?? Date.now(), validTo: (window.validFrom ?? Date.now()) + ONE_TIME_DEFAULT_MS };
  }
  let secretEnc: string | null = null;
  if (input.kind === 'password' || input.kind === 'tempPassword') {
    if (input.password !== undefined) checkDigits(lock.rules, input.password);
    if (input.password !== undefined) await checkDuplicateDigits(tx, lock.id, input.password, actor.box);
    secretEnc = actor.box.seal(input.password ?? (await drawDigits(tx, lock, actor.box)));
  }
  const cardNumber = input.cardNumber?.toUpperCase() ?? null;
  if (input.kind === 'card') await checkDuplicateCard(tx, lock.id, cardNumber as string, input.reversed ?? false);
  const table = TABLE[input.kind];
  await checkCapacity(tx, lock, table);
  const slot = table === 'fingerprints' ? null : await freeSlot(tx, lock, table);
  const [row] = await tx.insert(credentials).values({
    tenantId: actor.tenantId, lockId: lock.id, kind: input.kind, slot, slotTable: table, lockUserId: holder?.id ?? null, userSlot: holder?.userSlot ?? null,
    validFrom: window.validFrom === undefined ? null : new Date(window.validFrom), validTo: window.validTo === undefined ? null : new Date(window.validTo),
    oneTime: input.oneTime ?? false, cardNumber, reversed: input.reversed ?? false, secretEnc, syncState: 'adding', pendingAction: 'add', createdBy: actor.username,
  }).returning({ id: credentials.id });
  const id = row?.id as number;
  await dispatchCredential(tx, actor, id, 'add');
  return { record: await credentialRecord(tx, id), lockId: lock.id };
}

/**
 * Deletes a credential on its lock (state deleting until the lock answers). A fingerprint the lock
 * never enrolled (no slot) has nothing to delete there: its row goes at once.
 */
export async function deleteCredential(tx: Executor, actor: Actor, id: number, kinds: readonly CredentialKind[], logAction: CredentialAction = 'delete'): Promise<Done> {
  const row = await lockedCredential(tx, id, kinds);
  checkIdle(row, 'delete');
  if (row.kind === 'fingerprint' && row.slot === null) {
    const record = await credentialRecord(tx, id);
    await tx.delete(credentials).where(eq(credentials.id, id));
    await logOperation(tx, actor, row.lockId, { subject: 'fingerprint', action: logAction, rowId: id, kind: row.kind });
    return { record, lockId: row.lockId };
  }
  await dispatchCredential(tx, actor, id, 'delete', logAction);
  return { record: await credentialRecord(tx, id), lockId: row.lockId };
}

/** Re-sends the failed operation of a credential (409 NOT_FAILED otherwise). */
export async function retryCredential(tx: Executor, actor: Actor, id: number, kinds: readonly CredentialKind[]): Promise<Done> {
  const row = await lockedCredential(tx, id, kinds);
  if (!isFailed(row.syncState)) throw new ApiError('NOT_FAILED');
  await dispatchCredential(tx, actor, id, row.pendingAction as 'add' | 'delete', 'retry');
  return { record: await credentialRecord(tx, id), lockId: row.lockId };
}

/** Deletes the platform row of a failed credential without sending anything. */
export async function discardCredential(tx: Executor, actor: Actor, id: number, kinds: readonly CredentialKind[]): Promise<{ id: number }> {
  const row = await lockedCredential(tx, id, kinds);
  if (!isFailed(row.syncState)) throw new ApiError('NOT_FAILED');
  await tx.delete(credentials).where(eq(credentials.id, id));
  await logOperation(tx, actor, row.lockId, { subject: subjectOf(row.kind), action: 'discard', rowId: id, kind: row.kind, slot: row.slot });
  return { id };
}

