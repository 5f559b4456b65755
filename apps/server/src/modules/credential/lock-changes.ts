/**
 * What a lock changed on its own (uplink `lockUserChange`, Matter event LockUserChange),
 * applied in the uplink's transaction by the gateway's handler table: a user the lock cleared (a
 * disposable user after its one use) goes from the platform with its credentials (and schedules, by
 * cascade), a credential it cleared goes too; each with an operation-log row `lockCleared` by `lock`.
 * Additions at the keypad are learnt from the inventory that follows them (inventory.ts).
 */
import type { protocol } from '@iot/contract';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { credentials, lockUsers } from '../../db/schema.js';
import { logOperation, subjectOf } from './ops.js';

interface ChangeUplink {
  lockId: number;
  tenantId: number;
  message: Extract<protocol.UplinkMessage, { type: 'lockUserChange' }>;
}

const TABLE_OF = { pin: 'passwords', rfid: 'cards', fingerprint: 'fingerprints' } as const;
/** The operator the log names for the lock's own changes. */
const LOCK = 'lock';

/** Applies the changes (see the module comment); unknown users and slots are ignored. */
export async function applyLockUserChanges(tx: Tx, uplinks: readonly ChangeUplink[]): Promise<void> {
  for (const { lockId, tenantId, message } of uplinks) {
    const { lockDataType, dataOperationType, userSlot, slot } = message.data;
    if (dataOperationType !== 'clear') continue;
    const actor = { tenantId, username: LOCK };
    if (lockDataType === 'userIndex' && userSlot !== undefined) {
      const [user] = await tx.delete(lockUsers).where(and(eq(lockUsers.lockId, lockId), eq(lockUsers.userSlot, userSlot))).returning();
      if (!user) continue;
      await tx.delete(credentials).where(eq(credentials.lockUserId, user.id));
      await logOperation(tx, actor, lockId, { subject: 'user', action: 'lockCleared', rowId: user.id, holderName: user.name });
    } else if (lockDataType !== 'userIndex' && slot !== undefined) {
      const [row] = await tx.delete(credentials).where(and(eq(credentials.lockId, lockId), eq(credentials.slotTable, TABLE_OF[lockDataType]), eq(credentials.slot, slot))).returning();
      if (row) await logOperation(tx, actor, lockId, { subject: subjectOf(row.kind), action: 'lockCleared', rowId: row.id, kind: row.kind, slot: row.slot });
    }
  }
}
