/**
 * 设备信息's drift card (contract api/lockDrift.ts): the lock's latest inventory against the
 * platform per table, and what an operator does about it: ask for a fresh inventory, adopt an
 * unmanaged password / card / fingerprint for a lock user (downlink credentialOwner), delete an
 * unmanaged slot from the lock, re-queue the add of a missing row, or mark it lost (the platform row
 * goes, nothing is sent). Each action logs an operation row; when no drift is left the credentialDrift
 * alarm clears. Tenant transaction; 404 for ids not in the tenant, 409 CONFLICT for a row in the wrong
 * state.
 */
import { type CredentialKind, type LockDriftRecord, protocol, localized } from '@iot/contract';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { credentials, lockInventories, lockUsers, unmanagedSlots } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { emit } from '../../events/emit.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { dispatchCredential } from './credentials.js';
import { missingRows, reportSlots, reviewDrift } from './inventory.js';
import { type Actor, logOperation, send, subjectOf } from './ops.js';
import { credentialRecord, findLock } from './repo.js';
import { dispatchUser, lockedUser } from './users.js';

type InventoryTable = protocol.InventoryTable;
const KIND_OF: Record<Exclude<InventoryTable, 'users'>, CredentialKind> = { passwords: 'password', cards: 'card', fingerprints: 'fingerprint' };
const conflict = (zh: string, en: string) => new ApiError('CONFLICT', [{ field: 'body.id', message: localized(zh, en) }]);

/** The drift of one lock (see the module comment). */
export async function driftOf(tx: Tx, ref: { lockId?: number; imei?: string }): Promise<LockDriftRecord> {
  const lock = await findLock(tx, ref);
  const [report] = await tx.select().from(lockInventories).where(eq(lockInventories.lockId, lock.id));
  const unmanaged = await tx.select().from(unmanagedSlots).where(eq(unmanagedSlots.lockId, lock.id)).orderBy(unmanagedSlots.slot);
  const onLock = report ? reportSlots(report) : undefined;
  const missing = report && onLock ? await missingRows(tx, lock.id, onLock, report.reportedAt) : [];
  const users = await tx.select({ slot: lockUsers.userSlot, state: lockUsers.syncState }).from(lockUsers).where(eq(lockUsers.lockId, lock.id));
  const rows = await tx.select({ table: credentials.slotTable, state: credentials.syncState }).from(credentials).where(eq(credentials.lockId, lock.id));
  const believed = (state: string) => !['adding', 'add_failed'].includes(state);
  const tables = protocol.INVENTORY_TABLES.map((table) => ({
    table, onLock: onLock?.[table].size ?? 0,
    onPlatform: table === 'users' ? users.filter((u) => believed(u.state)).length : rows.filter((r) => r.table === table && believed(r.state)).length,
    unmanaged: unmanaged.filter((u) => u.slotTable === table).map((u) => ({ id: u.id, slot: u.slot, syncState: u.syncState as LockDriftRecord['tables'][number]['unmanaged'][number]['syncState'] })),
    missing: missing.filter((m) => m.table === table).map(({ subject, id, slot, name, kind }) => ({ subject, id, slot, name, kind: kind as CredentialKind | null })),
  }));
  return {
    lockId: lock.id, imei: lock.imei, inventory: report ? { reason: report.reason as 'change', digest: report.digest, reportedAt: iso(report.reportedAt) } : null,
    inSync: report !== undefined && unmanaged.length === 0 && missing.length === 0, tables,
  };
}

/**
 * After an operator's action: clears the alarm once nothing is left to resolve, else only says what is
 * left (`credential.drift`; the active alarm is not raised again).
 */
async function settleAlarm(tx: Tx, tenantId: number, lockId: number): Promise<void> {
  const drift = await driftOf(tx, { lockId });
  const unmanaged = drift.tables.reduce((n, table) => n + table.unmanaged.length, 0);
  const missing = drift.tables.reduce((n, table) => n + table.missing.length, 0);
  if (unmanaged + missing === 0) await reviewDrift(tx, tenantId, lockId, 0, 0);
  else await emit(tx, 'credential.drift', { tenantId, lockId, unmanaged, missing });
}

async function lockedUnmanaged(tx: Tx, id: number) {
  const [row] = await tx.select().from(unmanagedSlots).where(eq(unmanagedSlots.id, id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  if (!['normal', 'delete_failed'].includes(row.syncState)) throw new ApiError('CREDENTIAL_BUSY');
  return row;
}

/** Assigns an unmanaged password / card / fingerprint slot to a lock user of the same lock. */
export async function adopt(tx: Tx, actor: Actor, id: number, lockUserId: number) {
  const row = await lockedUnmanaged(tx, id);
  if (row.slotTable === 'users') throw conflict('门锁用户槽位不能认领，只能删除', 'A user slot cannot be adopted, only deleted');
  const user = await lockedUser(tx, lockUserId);
  if (user.lockId !== row.lockId) throw fieldError('body.lockUserId', '该用户不在这把门锁上', 'This user is not on this lock');
  const kind = KIND_OF[row.slotTable as Exclude<InventoryTable, 'users'>];
  // A row whose add failed in this slot was never on the lock: the adopted code takes the slot.
  await tx.delete(credentials).where(and(eq(credentials.lockId, row.lockId), eq(credentials.slotTable, row.slotTable), eq(credentials.slot, row.slot), eq(credentials.syncState, 'add_failed')));
  const [created] = await tx.insert(credentials).values({
    tenantId: actor.tenantId, lockId: row.lockId, kind, slot: row.slot, slotTable: row.slotTable, lockUserId, userSlot: user.userSlot,
    syncState: 'modifying', pendingAction: 'modify', createdBy: actor.username,
  }).returning({ id: credentials.id });
  await tx.delete(unmanagedSlots).where(eq(unmanagedSlots.id, id));
  await dispatchCredential(tx, actor, created?.id as number, 'modify', 'adopt');
  await settleAlarm(tx, actor.tenantId, row.lockId);
  return { record: await credentialRecord(tx, created?.id as number), lockId: row.lockId };
}

/** Deletes an unmanaged slot from the lock (the row follows the command: gone on success). */
export async function deleteUnmanaged(tx: Tx, actor: Actor, id: number) {
  const row = await lockedUnmanaged(tx, id);
  const downlink = row.slotTable === 'users' ? { type: 'userOperation' as const, data: { action: 'delete', userSlot: row.slot } }
    : row.slotTable === 'passwords' ? { type: 'foreverPassword' as const, data: { action: 'delete', slot: row.slot } }
    : row.slotTable === 'cards' ? { type: 'cardOperate' as const, data: { action: 'delete', slot: row.slot } }
    : { type: 'addFingerPrint' as const, data: { action: 'delete', userSlot: 0, slot: row.slot } };
  const subject = row.slotTable === 'users' ? 'user' : subjectOf(KIND_OF[row.slotTable as Exclude<InventoryTable, 'users'>]);
  const command = await send(tx, actor, row.lockId, downlink, { subject, action: 'delete', rowId: row.id, slot: row.slot });
  await tx.update(unmanagedSlots).set({ syncState: 'deleting', pendingAction: 'delete', lastCommandId: command.id }).where(eq(unmanagedSlots.id, id));
  return { result: { id, commandId: command.id }, lockId: row.lockId };
}

/** A row the latest report says the lock lacks (409 otherwise). */
async function missingRow(tx: Tx, subject: 'user' | 'credential', id: number) {
  const [row] = subject === 'user' ? await tx.select({ lockId: lockUsers.lockId }).from(lockUsers).where(eq(lockUsers.id, id))
    : await tx.select({ lockId: credentials.lockId }).from(credentials).where(eq(credentials.id, id));
  if (!row) throw new ApiError('NOT_FOUND');
  const drift = await driftOf(tx, { lockId: row.lockId });
  if (!drift.tables.some((table) => table.missing.some((m) => m.subject === subject && m.id === id))) throw conflict('门锁上并不缺少这条记录', 'The lock does not lack this row');
  return row.lockId;
}

/** Sends the add of a missing row again. */
export async function requeue(tx: Tx, actor: Actor, subject: 'user' | 'credential', id: number) {
  const lockId = await missingRow(tx, subject, id);
  if (subject === 'user') await dispatchUser(tx, actor, id, 'add', 'requeue');
  else {
    const [row] = await tx.select({ kind: credentials.kind, secret: credentials.secretEnc, card: credentials.cardNumber }).from(credentials).where(eq(credentials.id, id));
    if (row?.kind === 'fingerprint') throw conflict('指纹须在门锁上重新录入', 'A fingerprint must be enrolled again at the lock');
    if ((row?.kind === 'card' && !row.card) || (row?.kind !== 'card' && !row?.secret)) throw conflict('平台不知道这条凭证的内容（在门锁键盘上添加后认领），无法重新下发', 'The platform does not know this credential (adopted from the keypad), so it cannot send it again');
    await dispatchCredential(tx, actor, id, 'add', 'requeue');
  }
  const table = subject === 'user' ? lockUsers : credentials;
  const [after] = await tx.select({ commandId: table.lastCommandId }).from(table).where(eq(table.id, id));
  return { result: { commandId: after?.commandId as number }, lockId };
}

/** Deletes the platform row of a missing row (a user with its credentials), sending nothing. */
export async function markLost(tx: Tx, actor: Actor, subject: 'user' | 'credential', id: number) {
  const lockId = await missingRow(tx, subject, id);
  if (subject === 'user') {
    const [user] = await tx.delete(lockUsers).where(eq(lockUsers.id, id)).returning();
    await tx.delete(credentials).where(eq(credentials.lockUserId, id));
    await logOperation(tx, actor, lockId, { subject: 'user', action: 'markLost', rowId: id, holderName: user?.name });
  } else {
    const [row] = await tx.delete(credentials).where(and(eq(credentials.id, id))).returning();
    await logOperation(tx, actor, lockId, { subject: subjectOf(row?.kind ?? 'password'), action: 'markLost', rowId: id, kind: row?.kind, slot: row?.slot });
  }
  await settleAlarm(tx, actor.tenantId, lockId);
  return { id };
}
