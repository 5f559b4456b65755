/**
 * Past lock users, credentials and operation-log rows for the demo's lived-in history
 * (demo/history/; tables `lock_users`, `credentials`, `credential_operations`, owned by this
 * module). Password digits are sealed as addCredential seals them; each row's last command is given.
 */
import type { CredentialAction, CredentialKind, CredentialSubject, SyncState } from '@iot/contract';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Executor } from '../../db/client.js';
import { credentialOperations, credentials, lockUsers } from '../../db/schema.js';

/** Times are ms since epoch. */
export interface PastLockUser {
  tenantId: number; lockId: number; userSlot: number; name: string; phone: string;
  status: 'normal' | 'frozen'; syncState: SyncState; pendingAction: string; lastCommandId: number; createdBy: string; createdAt: number;
}
export interface PastCredential {
  tenantId: number; lockId: number; kind: CredentialKind; slot: number | null; slotTable: 'passwords' | 'cards' | 'fingerprints';
  /** Index into the users passed alongside. */
  user: number; password?: string; cardNumber?: string; syncState: SyncState; pendingAction: 'add' | 'delete';
  lastCommandId: number; createdBy: string; createdAt: number; validTo?: number;
}
export interface PastOperation {
  tenantId: number; lockId: number; subject: CredentialSubject; action: CredentialAction; kind?: CredentialKind; slot?: number | null;
  /** Index into the users (user subject) or credentials (other subjects). */
  row: number; holderName: string; operator: string; commandId: number; createdAt: number;
}

/** Inserts the users, then their credentials, then the operation log (owner connection). */
export async function insertCredentialHistory(db: Executor, box: SecretBox, past: { users: PastLockUser[]; credentials: PastCredential[]; operations: PastOperation[] }): Promise<void> {
  if (past.users.length === 0) return;
  const users = await db.insert(lockUsers).values(past.users.map((user) => ({ ...user, createdAt: new Date(user.createdAt), updatedAt: new Date(user.createdAt) })))
    .returning({ id: lockUsers.id });
  const rows = past.credentials.length === 0 ? [] : await db.insert(credentials).values(past.credentials.map((credential) => {
    const holder = past.users[credential.user];
    return {
      tenantId: credential.tenantId, lockId: credential.lockId, kind: credential.kind, slot: credential.slot, slotTable: credential.slotTable,
      lockUserId: users[credential.user]?.id ?? null, userSlot: holder?.userSlot ?? null, validTo: credential.validTo ? new Date(credential.validTo) : null,
      cardNumber: credential.cardNumber ?? null, secretEnc: credential.password ? box.seal(credential.password) : null, syncState: credential.syncState,
      pendingAction: credential.pendingAction, lastCommandId: credential.lastCommandId, createdBy: credential.createdBy,
      createdAt: new Date(credential.createdAt), updatedAt: new Date(credential.createdAt),
    };
  })).returning({ id: credentials.id });
  if (past.operations.length === 0) return;
  await db.insert(credentialOperations).values(past.operations.map((operation) => ({
    tenantId: operation.tenantId, lockId: operation.lockId, subject: operation.subject, action: operation.action,
    rowId: (operation.subject === 'user' ? users : rows)[operation.row]?.id ?? null, kind: operation.kind ?? null, slot: operation.slot ?? null,
    holderName: operation.holderName, operator: operation.operator, commandId: operation.commandId, createdAt: new Date(operation.createdAt),
  })));
}
