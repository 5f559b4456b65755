/**
 * Reading lock users and credentials as contract records: joined with their lock, holder
 * and last command; secrets masked (contract SECRET_MASK). Every function takes the caller's tenant
 * transaction, so row-level security confines it to the tenant.
 */
import { type CredentialRecord, type LockUserRecord, type Page, SECRET_MASK } from '@iot/contract';
import { and, desc, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { commands, credentials, deviceTypes, locks, lockUsers } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { containsPattern, iso } from '../../db/sql.js';
import { cappedCount } from '../../db/count.js';
import { lockTypeJoin, lockRulesColumns, rulesOf } from '../deviceType/rules.js';
import { lockKeyword, roomSql } from '../lockDevice/sql.js';

const holder = alias(lockUsers, 'holder');

/**
 * The lock of `lockId` (or registered `imei`) in the tenant with its device type's rules, the lock row
 * locked for update when `lock` (slot allocation); 404 otherwise.
 */
export async function findLock(tx: Executor, ref: { lockId?: number; imei?: string }, lock = false) {
  const where = ref.lockId !== undefined ? eq(locks.id, ref.lockId) : and(eq(locks.imei, ref.imei ?? ''), isNull(locks.imeiReleasedAt));
  const query = tx.select({ id: locks.id, imei: locks.imei, name: locks.name, model: locks.model, tenantId: locks.tenantId, ...lockRulesColumns })
    .from(locks).leftJoin(deviceTypes, lockTypeJoin).where(where);
  const [row] = lock ? await query.for('update', { of: locks }) : await query;
  if (!row) throw new ApiError('NOT_FOUND');
  const { id, imei, name, model, tenantId } = row;
  return { id, imei, name, model, tenantId, rules: rulesOf(row) };
}
export type LockRow = Awaited<ReturnType<typeof findLock>>;

const userColumns = {
  id: lockUsers.id, lockId: lockUsers.lockId, imei: locks.imei, lockName: locks.name, room: roomSql, userSlot: lockUsers.userSlot,
  name: lockUsers.name, phone: lockUsers.phone, validFrom: lockUsers.validFrom, validTo: lockUsers.validTo, status: lockUsers.status,
  userType: lockUsers.userType, credentialRule: lockUsers.credentialRule, expiringMinutes: lockUsers.expiringMinutes,
  syncState: lockUsers.syncState, lastCommandId: lockUsers.lastCommandId, lastCommandState: commands.state, lastResultCode: commands.resultCode,
  credentials: sql<number>`(select count(*) from ${credentials} cr where cr.lock_user_id = ${lockUsers.id})`.mapWith(Number),
  createdBy: lockUsers.createdBy, createdAt: lockUsers.createdAt, updatedAt: lockUsers.updatedAt,
};

function toUser(row: Record<string, unknown>): LockUserRecord {
  return {
    ...row, validFrom: iso(row.validFrom as Date | null), validTo: iso(row.validTo as Date | null),
    createdAt: iso(row.createdAt as Date) as string, updatedAt: iso(row.updatedAt as Date) as string,
  } as LockUserRecord;
}

/** A page of lock users in `order` (default newest first); the total capped (db/count.ts). */
export async function selectUsers(tx: Executor, where: SQL | undefined, current = 1, size = 500, order: SQL[] = [desc(lockUsers.id)]): Promise<Page<LockUserRecord>> {
  const total = await cappedCount(tx, tx.select({ one: sql`1` }).from(lockUsers).innerJoin(locks, eq(locks.id, lockUsers.lockId)).where(where));
  const rows = await tx.select(userColumns).from(lockUsers).innerJoin(locks, eq(locks.id, lockUsers.lockId))
    .leftJoin(commands, eq(commands.id, lockUsers.lastCommandId)).where(where)
    .orderBy(...order).limit(size).offset((current - 1) * size);
  return { records: rows.map(toUser), ...total, current, size };
}

/** One lock user; 404 when not in the tenant. */
export async function userRecord(tx: Executor, id: number): Promise<LockUserRecord> {
  const found = (await selectUsers(tx, eq(lockUsers.id, id))).records[0];
  if (!found) throw new ApiError('NOT_FOUND');
  return found;
}

const credentialColumns = {
  id: credentials.id, lockId: credentials.lockId, imei: locks.imei, lockName: locks.name, room: roomSql, kind: credentials.kind,
  slot: credentials.slot, lockUserId: credentials.lockUserId, userSlot: credentials.userSlot, holderName: holder.name, holderPhone: holder.phone,
  validFrom: credentials.validFrom, validTo: credentials.validTo, oneTime: credentials.oneTime, hasSecret: sql<boolean>`${credentials.secretEnc} is not null`,
  cardNumber: credentials.cardNumber, reversed: credentials.reversed, syncState: credentials.syncState,
  lastCommandId: credentials.lastCommandId, lastCommandState: commands.state, lastResultCode: commands.resultCode,
  createdBy: credentials.createdBy, createdAt: credentials.createdAt, updatedAt: credentials.updatedAt,
};

function toCredential({ hasSecret, ...row }: Record<string, unknown>): CredentialRecord {
  return {
    ...row, secret: hasSecret ? SECRET_MASK : null, validFrom: iso(row.validFrom as Date | null), validTo: iso(row.validTo as Date | null),
    createdAt: iso(row.createdAt as Date) as string, updatedAt: iso(row.updatedAt as Date) as string,
  } as CredentialRecord;
}

/** A page of credentials in `order` (default newest first); the total capped (db/count.ts). */
export async function selectCredentials(tx: Executor, where: SQL | undefined, current = 1, size = 500, order: SQL[] = [desc(credentials.id)]): Promise<Page<CredentialRecord>> {
  const base = () => tx.select(credentialColumns).from(credentials).innerJoin(locks, eq(locks.id, credentials.lockId))
    .leftJoin(holder, eq(holder.id, credentials.lockUserId)).leftJoin(commands, eq(commands.id, credentials.lastCommandId));
  const total = await cappedCount(tx, tx.select({ one: sql`1` }).from(credentials).innerJoin(locks, eq(locks.id, credentials.lockId))
    .leftJoin(holder, eq(holder.id, credentials.lockUserId)).where(where));
  const rows = await base().where(where).orderBy(...order).limit(size).offset((current - 1) * size);
  return { records: rows.map(toCredential), ...total, current, size };
}

/** One credential; 404 when not in the tenant. */
export async function credentialRecord(tx: Executor, id: number): Promise<CredentialRecord> {
  const found = (await selectCredentials(tx, eq(credentials.id, id))).records[0];
  if (!found) throw new ApiError('NOT_FOUND');
  return found;
}

/** Keyword over holder name/phone, card number and the lock's IMEI/name/room. */
export function credentialKeyword(keyword: string): SQL {
  const p = containsPattern(keyword);
  return or(ilike(holder.name, p), ilike(holder.phone, p), ilike(credentials.cardNumber, p), lockKeyword(keyword)) as SQL;
}
/** Keyword over user name/phone and the lock's IMEI/name/room. */
export function userKeyword(keyword: string): SQL {
  const p = containsPattern(keyword);
  return or(ilike(lockUsers.name, p), ilike(lockUsers.phone, p), lockKeyword(keyword)) as SQL;
}
export const lockWhere = (ref: { lockId?: number; imei?: string }, column: typeof credentials.lockId | typeof lockUsers.lockId): SQL[] =>
  [ref.lockId !== undefined ? eq(column, ref.lockId) : undefined, ref.imei ? eq(locks.imei, ref.imei) : undefined].filter((c): c is SQL => c !== undefined);
export { holder };
