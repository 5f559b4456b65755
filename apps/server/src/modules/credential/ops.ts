/**
 * What every credential operation shares: the sync state an action puts a row in, the
 * downlink that carries a row's pending action (built from the row, so a retry re-sends the same),
 * and "send": enqueue through the outbox + one operation-log row, in the caller's tenant transaction.
 */
import type { CommandRecord, CredentialAction, CredentialSubject, protocol, SyncState } from '@iot/contract';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Executor } from '../../db/client.js';
import { credentialOperations, type credentials, type lockUsers } from '../../db/schema.js';
import { ApiError, conflictError } from '../../http/api-error.js';
import { enqueueCommand } from '../command/outbox.js';

/** Who acts: tenant, operator username, the secret box. */
export interface Actor {
  tenantId: number;
  username: string;
  box: SecretBox;
}

export type PendingAction = 'add' | 'modify' | 'freeze' | 'unfreeze' | 'delete';
/** State while the command of an action is on its way. */
export const ACTIVE_STATE: Record<PendingAction, SyncState> = { add: 'adding', modify: 'modifying', freeze: 'modifying', unfreeze: 'modifying', delete: 'deleting' };
const BUSY: readonly string[] = ['adding', 'modifying', 'deleting'];
export const isFailed = (state: string) => state.endsWith('_failed');

/** 409 CREDENTIAL_BUSY while the row's command is on its way; 409 CONFLICT for a change of a row never added. */
export function checkIdle(row: { syncState: string }, action: PendingAction): void {
  if (BUSY.includes(row.syncState)) throw new ApiError('CREDENTIAL_BUSY');
  if (row.syncState === 'add_failed' && action !== 'delete') throw conflictError('body.id', '该记录未能添加到门锁，只能重试或放弃', 'This was never added to the lock: retry or discard it');
}

type UserRow = typeof lockUsers.$inferSelect;
type CredentialRow = typeof credentials.$inferSelect;
const ms = (value: Date | null) => (value ? value.getTime() : undefined);

/** The userOperation carrying the row's pending action. */
export function userDownlink(row: UserRow): { type: 'userOperation'; data: Record<string, unknown> } {
  const action = row.pendingAction as PendingAction;
  const window = action === 'add' || action === 'modify' ? {
    validFrom: ms(row.validFrom), validTo: ms(row.validTo), name: row.name, userType: row.userType, credentialRule: row.credentialRule,
    ...(row.expiringMinutes === null ? {} : { expiringMinutes: row.expiringMinutes }),
  } : {};
  return { type: 'userOperation', data: { action, userSlot: row.userSlot, ...window } };
}

/** The downlink of a credential row's pending action (add or delete); digits opened from the box. */
export function credentialDownlink(row: CredentialRow, box: SecretBox): { type: protocol.DownlinkType; data: Record<string, unknown> } {
  const action = row.pendingAction as 'add' | 'delete' | 'modify';
  const userSlot = row.userSlot ?? undefined;
  // A credential adopted from the lock's inventory is assigned to its user on the lock.
  if (action === 'modify') return { type: 'credentialOwner', data: { table: row.slotTable, slot: row.slot, userSlot: userSlot ?? 0 } };
  switch (row.kind) {
    case 'password':
    case 'tempPassword': {
      if (action === 'delete') return { type: row.kind === 'password' ? 'foreverPassword' : 'tempPassword', data: { action, slot: row.slot } };
      const password = box.open(row.secretEnc as string);
      if (row.kind === 'password') return { type: 'foreverPassword', data: { action, slot: row.slot, userSlot, password } };
      return { type: 'tempPassword', data: { action, slot: row.slot, userSlot, password, oneTime: row.oneTime, validFrom: ms(row.validFrom), validTo: ms(row.validTo) } };
    }
    case 'card':
      return { type: 'cardOperate', data: { action, slot: row.slot ?? undefined, userSlot, cardNumber: row.cardNumber, reversed: row.reversed } };
    default:
      return { type: 'addFingerPrint', data: { action, userSlot: userSlot ?? 0, slot: row.slot ?? undefined } };
  }
}

/** Subject (page / log) of a credential kind. */
export const subjectOf = (kind: string): CredentialSubject => (kind === 'card' ? 'card' : kind === 'fingerprint' ? 'fingerprint' : 'password');

export interface LogEntry {
  subject: CredentialSubject;
  action: CredentialAction;
  rowId: number;
  kind?: string | null;
  slot?: number | null;
  holderName?: string | null;
}

/** Writes one operation-log row (commandId null when nothing was sent). */
export async function logOperation(tx: Executor, actor: Pick<Actor, 'tenantId' | 'username'>, lockId: number, entry: LogEntry, commandId: number | null = null): Promise<void> {
  await tx.insert(credentialOperations).values({
    tenantId: actor.tenantId, lockId, subject: entry.subject, action: entry.action, rowId: entry.rowId, kind: entry.kind ?? null,
    slot: entry.slot ?? null, holderName: entry.holderName ?? null, operator: actor.username, commandId,
  });
}

/** Queues `downlink` for the lock (outbox rules: 409 QUEUE_FULL ...) and logs the operation. */
export async function send(tx: Executor, actor: Actor, lockId: number, downlink: { type: protocol.DownlinkType; data: unknown }, entry: LogEntry): Promise<CommandRecord> {
  const command = await enqueueCommand(tx, { tenantId: actor.tenantId, lockId, type: downlink.type, data: downlink.data, createdBy: actor.username }, actor.box);
  await logOperation(tx, actor, lockId, entry, command.id);
  return command;
}
