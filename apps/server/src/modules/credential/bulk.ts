/**
 * Operations over every lock of the tenant: report a card lost (delete that card, as the
 * lock reads it, wherever it is held) and offboard a person (delete each of their lock users, which
 * takes their credentials with it on the lock). Each lock runs in its own savepoint: a lock that
 * refuses (QUEUE_FULL, a row still syncing) reports its error and the others go on.
 */
import type { CredentialRecord, CredentialSubject, OffboardPreview, protocol } from '@iot/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { commands, credentials, locks, lockUsers } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { deleteCredential } from './credentials.js';
import type { Actor } from './ops.js';
import { credentialRecord } from './repo.js';
import { canonicalCard } from './rules.js';
import { dispatchUser, lockedUser } from './users.js';

/** The answer for a person without lock users: no credentials found, rather than 资源不存在. */
const NOTHING_TO_REVOKE = { 'zh-CN': '没有找到此人的门锁用户或凭证，无需注销', 'en-US': 'No lock users or credentials of this person were found; nothing to revoke' };

/** What offboarding `who` would revoke: per lock, their lock users and credentials by kind (read only). */
export async function offboardPreview(tx: Executor, who: { phone?: string; name?: string }): Promise<OffboardPreview> {
  const where = who.phone !== undefined ? eq(lockUsers.phone, who.phone) : eq(lockUsers.name, who.name ?? '');
  const users = await tx.select({ id: lockUsers.id, lockId: lockUsers.lockId, userSlot: lockUsers.userSlot, name: lockUsers.name, imei: locks.imei, lockName: locks.name })
    .from(lockUsers).innerJoin(locks, eq(locks.id, lockUsers.lockId)).where(where).orderBy(lockUsers.lockId, lockUsers.userSlot);
  const held = users.length === 0 ? [] : await tx.select({ lockId: credentials.lockId, kind: credentials.kind }).from(credentials)
    .where(inArray(credentials.lockUserId, users.map((user) => user.id)));
  const byLock = new Map<number, OffboardPreview['locks'][number]>();
  for (const user of users) {
    const lock = byLock.get(user.lockId) ?? { lockId: user.lockId, imei: user.imei, lockName: user.lockName, users: [], passwords: 0, cards: 0, fingerprints: 0 };
    lock.users.push({ id: user.id, userSlot: user.userSlot, name: user.name });
    byLock.set(user.lockId, lock);
  }
  for (const credential of held) {
    const lock = byLock.get(credential.lockId);
    if (!lock) continue;
    if (credential.kind === 'card') lock.cards += 1;
    else if (credential.kind === 'fingerprint') lock.fingerprints += 1;
    else lock.passwords += 1;
  }
  return { locks: [...byLock.values()] };
}

export interface LockResult {
  lockId: number;
  imei: string;
  lockName: string;
  commands: { subject: CredentialSubject; rowId: number; commandId: number; state: protocol.CommandState }[];
  error: string | null;
}

/** Runs `work` for each row of each lock in a savepoint per lock; collects the commands queued (`work` may return several). */
export async function perLock(tx: Executor, rows: { id: number; lockId: number }[], subject: CredentialSubject, work: (sp: Executor, id: number) => Promise<number | number[] | null>): Promise<LockResult[]> {
  const lockIds = [...new Set(rows.map((row) => row.lockId))];
  if (lockIds.length === 0) return [];
  const lockRows = await tx.select({ id: locks.id, imei: locks.imei, name: locks.name }).from(locks).where(inArray(locks.id, lockIds)).orderBy(locks.id);
  const results: LockResult[] = [];
  for (const lock of lockRows) {
    const result: LockResult = { lockId: lock.id, imei: lock.imei, lockName: lock.name, commands: [], error: null };
    try {
      await tx.transaction(async (sp) => {
        for (const row of rows.filter((r) => r.lockId === lock.id)) {
          const done = await work(sp, row.id);
          for (const commandId of done === null ? [] : [done].flat()) result.commands.push({ subject, rowId: row.id, commandId, state: 'QUEUED' });
        }
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      result.error = error.code;
      result.commands = [];
    }
    results.push(result);
  }
  return results;
}

/** Deletes the card on every lock of the tenant holding it; returns the rows and per-lock results. */
export async function reportLost(tx: Executor, actor: Actor, cardNumber: string, reversed: boolean): Promise<{ records: CredentialRecord[]; locks: LockResult[] }> {
  const wanted = canonicalCard(cardNumber, reversed);
  const cards = (await tx.select({ id: credentials.id, lockId: credentials.lockId, cardNumber: credentials.cardNumber, reversed: credentials.reversed })
    .from(credentials).where(eq(credentials.kind, 'card')))
    .filter((row) => row.cardNumber && canonicalCard(row.cardNumber, row.reversed) === wanted);
  const results = await perLock(tx, cards, 'card', async (sp, id) => {
    const done = await deleteCredential(sp, actor, id, ['card'], 'reportLost');
    return done.record.lastCommandId;
  });
  const records: CredentialRecord[] = [];
  for (const result of results) for (const command of result.commands) records.push(await credentialRecord(tx, command.rowId));
  return { records, locks: results };
}

/** Deletes every lock user of the person (exact phone, else exact name) on every lock of the tenant. */
export async function offboard(tx: Executor, actor: Actor, who: { phone?: string; name?: string }): Promise<{ locks: LockResult[] }> {
  const where = who.phone !== undefined ? eq(lockUsers.phone, who.phone) : eq(lockUsers.name, who.name ?? '');
  const users = await tx.select({ id: lockUsers.id, lockId: lockUsers.lockId }).from(lockUsers).where(where).orderBy(lockUsers.id);
  if (users.length === 0) throw new ApiError('NOT_FOUND', undefined, NOTHING_TO_REVOKE);
  const results = await perLock(tx, users, 'user', async (sp, id) => {
    const row = await lockedUser(sp, id);
    if (row.pendingAction === 'delete' && row.syncState === 'deleting') return row.lastCommandId; // already on its way
    if (['adding', 'modifying'].includes(row.syncState)) throw new ApiError('CREDENTIAL_BUSY');
    await dispatchUser(sp, actor, id, 'delete', 'offboard');
    const [after] = await sp.select({ commandId: lockUsers.lastCommandId }).from(lockUsers).where(eq(lockUsers.id, id));
    return after?.commandId ?? null;
  });
  return { locks: results };
}

/** States of the tenant's commands among `ids` (others left out). */
export async function commandStates(tx: Executor, ids: number[]) {
  const rows = await tx.select({ commandId: commands.id, state: commands.state }).from(commands).where(and(inArray(commands.id, ids)));
  return rows.map((row) => ({ commandId: row.commandId, state: row.state as protocol.CommandState }));
}
