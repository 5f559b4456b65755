/**
 * Read side of credential management: the paged lists, the operation logs (with the lock's
 * answer read through the command row), a lock's capacity and the password reveal (the only way digits leave the platform, with
 * a backup code's digits when it is issued; each writes a system-log row).
 */
import type {
  CredentialKind, CredentialRecord, credentialListQuery, lockUserListQuery, OperationLogRecord, operationLogQuery, Page,
} from '@iot/contract';
import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { commands, credentialOperations, credentials, locks, lockUsers } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { containsPattern, iso, sortOrder } from '../../db/sql.js';
import { insertAudit } from '../auditLog/repo.js';
import { cappedCount } from '../../db/count.js';
import { lockKeyword, roomSql } from '../lockDevice/sql.js';
import { credentialKeyword, findLock, lockWhere, selectCredentials, selectUsers, userKeyword } from './repo.js';

const all = (conditions: (SQL | undefined)[]) => and(...conditions.filter(Boolean));

export function listUsers(tx: Executor, q: z.output<typeof lockUserListQuery>) {
  return selectUsers(tx, all([
    ...lockWhere(q, lockUsers.lockId), q.keyword ? userKeyword(q.keyword) : undefined, q.syncState ? eq(lockUsers.syncState, q.syncState) : undefined,
    q.status ? eq(lockUsers.status, q.status) : undefined, q.lockUserId ? eq(lockUsers.id, q.lockUserId) : undefined,
    q.userType ? eq(lockUsers.userType, q.userType) : undefined,
  ]), q.current, q.size, sortOrder(q, { name: lockUsers.name, userSlot: lockUsers.userSlot, createdAt: lockUsers.createdAt, updatedAt: lockUsers.updatedAt }, lockUsers.id, [desc(lockUsers.id)]));
}

/** A page of credentials of `kinds` (narrowed by the `kind` filter). */
export function listCredentials(tx: Executor, q: z.output<typeof credentialListQuery>, kinds: readonly CredentialKind[]): Promise<Page<CredentialRecord>> {
  const wanted = q.kind ? kinds.filter((kind) => kind === q.kind) : kinds;
  return selectCredentials(tx, all([
    inArray(credentials.kind, wanted.length ? [...wanted] : ['none']), ...lockWhere(q, credentials.lockId),
    q.keyword ? credentialKeyword(q.keyword) : undefined, q.syncState ? eq(credentials.syncState, q.syncState) : undefined,
    q.lockUserId ? eq(credentials.lockUserId, q.lockUserId) : undefined,
  ]), q.current, q.size, sortOrder(q, { slot: credentials.slot, createdAt: credentials.createdAt, updatedAt: credentials.updatedAt }, credentials.id, [desc(credentials.id)]));
}

/** A page of one subject's operation log, newest first by time (not by id: the demo's history is written lock by lock) unless `q` sorts by its time. */
export async function listOperations(tx: Executor, subject: string, q: z.output<typeof operationLogQuery>): Promise<Page<OperationLogRecord>> {
  const p = q.keyword ? containsPattern(q.keyword) : undefined;
  const where = all([
    eq(credentialOperations.subject, subject), q.lockId ? eq(credentialOperations.lockId, q.lockId) : undefined, q.imei ? eq(locks.imei, q.imei) : undefined,
    q.action ? eq(credentialOperations.action, q.action) : undefined,
    q.startTime ? gte(credentialOperations.createdAt, new Date(q.startTime)) : undefined, q.endTime ? lte(credentialOperations.createdAt, new Date(q.endTime)) : undefined,
    p && q.keyword ? or(ilike(credentialOperations.holderName, p), ilike(credentialOperations.operator, p), lockKeyword(q.keyword)) : undefined,
  ]);
  const total = await cappedCount(tx, tx.select({ one: sql`1` }).from(credentialOperations).innerJoin(locks, eq(locks.id, credentialOperations.lockId)).where(where));
  const rows = await tx.select({
    id: credentialOperations.id, lockId: credentialOperations.lockId, imei: locks.imei, lockName: locks.name, room: roomSql,
    subject: credentialOperations.subject, action: credentialOperations.action, rowId: credentialOperations.rowId, kind: credentialOperations.kind,
    slot: credentialOperations.slot, holderName: credentialOperations.holderName, operator: credentialOperations.operator, createdAt: credentialOperations.createdAt,
    commandId: credentialOperations.commandId, commandState: commands.state, resultCode: commands.resultCode, resultDetail: commands.resultDetail,
  }).from(credentialOperations).innerJoin(locks, eq(locks.id, credentialOperations.lockId)).leftJoin(commands, eq(commands.id, credentialOperations.commandId))
    .where(where).orderBy(...sortOrder(q, { createdAt: credentialOperations.createdAt }, credentialOperations.id, [desc(credentialOperations.createdAt), desc(credentialOperations.id)]))
    .limit(q.size).offset((q.current - 1) * q.size);
  const records = rows.map((row) => ({ ...row, createdAt: iso(row.createdAt) })) as OperationLogRecord[];
  return { records, ...total, current: q.current, size: q.size };
}

/** Rows per table of a lock against its model's slots. */
export async function capacity(tx: Executor, ref: { lockId?: number; imei?: string }) {
  const lock = await findLock(tx, ref);
  const model = lock.rules;
  const [users] = await tx.select({ n: count() }).from(lockUsers).where(eq(lockUsers.lockId, lock.id));
  const tables = await tx.select({ table: credentials.slotTable, n: count() }).from(credentials).where(eq(credentials.lockId, lock.id)).groupBy(credentials.slotTable);
  const use = (capacityOf: number, used: number) => ({ capacity: capacityOf, used, free: Math.max(0, capacityOf - used) });
  const usedOf = (table: string) => tables.find((row) => row.table === table)?.n ?? 0;
  return {
    lockId: lock.id, imei: lock.imei, model: lock.model, passwordDigits: model.passwordDigits, maxValidityDays: model.maxValidityDays,
    users: use(model.capacity.users, users?.n ?? 0), passwords: use(model.capacity.passwords, usedOf('passwords')),
    cards: use(model.capacity.cards, usedOf('cards')), fingerprints: use(model.capacity.fingerprints, usedOf('fingerprints')), access: model.access,
  };
}

/** The digits of a password; writes a system-log row (never the digits) in the same transaction. */
export async function revealPassword(tx: Executor, who: { tenantId: number; accountId: number; username: string; clientIp: string }, id: number, open: (sealed: string) => string) {
  const [row] = await tx.select({ enc: credentials.secretEnc, kind: credentials.kind, lockId: credentials.lockId }).from(credentials).where(eq(credentials.id, id));
  if (!row?.enc || !['password', 'tempPassword'].includes(row.kind)) throw new ApiError('NOT_FOUND');
  await insertAudit(tx, {
    tenantId: who.tenantId, accountId: who.accountId, username: who.username, action: 'POST /iot/v1/operatePassword/reveal',
    target: String(id), result: 'success', clientIp: who.clientIp, detail: { id, lockId: row.lockId, kind: row.kind },
  });
  return { id, password: open(row.enc) };
}

/**
 * The digits of password `id` of lock `lockId` (a backup code shown when it is issued; the
 * caller's endpoint writes the system-log row). 404 when there is no such password in the tenant.
 */
export async function passwordDigits(tx: Executor, id: number, lockId: number, open: (sealed: string) => string): Promise<string> {
  const [row] = await tx.select({ enc: credentials.secretEnc, kind: credentials.kind, lockId: credentials.lockId }).from(credentials).where(eq(credentials.id, id));
  if (!row?.enc || row.lockId !== lockId || !['password', 'tempPassword'].includes(row.kind)) throw new ApiError('NOT_FOUND');
  return open(row.enc);
}
