/**
 * Rules checked before anything is sent to a lock: validity windows, password digits per
 * device type, capacity per device type and duplicates on a lock. Each refusal is an ApiError (400 / 409) naming
 * the field; messages never contain the secret itself. Times are ms since epoch.
 */
import { randomInt } from 'node:crypto';
import type { CapacityTable, CredentialRule, LockModel, UserType } from '@iot/contract';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Executor } from '../../db/client.js';
import { credentials, lockUsers, unmanagedSlots } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import type { LockRow } from './repo.js';

const MINUTE_MS = 60_000;
/** Window of a one-time password given without one, ms. */
export const ONE_TIME_DEFAULT_MS = 24 * 3600 * 1000;

/** ISO time -> ms, floored to the minute; undefined stays undefined. */
export const toMinute = (value: string | undefined) => (value === undefined ? undefined : Math.floor(Date.parse(value) / MINUTE_MS) * MINUTE_MS);

/**
 * Checks a validity window (either end optional): start < end, end in the future, length at most the
 * device type's limit (measured from now when there is no start). Returns the window floored to the minute.
 */
export function checkValidity(rules: LockModel, validFrom: string | undefined, validTo: string | undefined, now = Date.now()) {
  const from = toMinute(validFrom);
  const to = toMinute(validTo);
  if (from !== undefined && to !== undefined && from >= to) throw fieldError('body.validTo', '结束时间必须晚于开始时间', 'validTo must be after validFrom');
  if (to !== undefined && to <= now) throw fieldError('body.validTo', '结束时间必须在将来', 'validTo must be in the future');
  const days = rules.maxValidityDays;
  if (to !== undefined && to - (from ?? now) > days * 86_400_000) {
    throw fieldError('body.validTo', `有效期不能超过 ${days} 天`, `The validity window may not exceed ${days} days`);
  }
  return { validFrom: from, validTo: to };
}

/** Refuses digits the device type does not accept (digits only; length per type). Never echoes them. */
export function checkDigits(rules: LockModel, digits: string): void {
  const { min, max } = rules.passwordDigits;
  if (/^\d+$/.test(digits) && digits.length >= min && digits.length <= max) return;
  throw fieldError('body.password', `密码须为 ${min}-${max} 位数字`, `The password must be ${min}-${max} digits`);
}

const TABLE_NAMES = { users: ['用户', 'user'], passwords: ['密码', 'password'], cards: ['卡片', 'card'], fingerprints: ['指纹', 'fingerprint'] } as const;

/** 409 CAPACITY_FULL when the lock's table holds as many rows as its device type has slots. */
export async function checkCapacity(tx: Executor, lock: LockRow, table: CapacityTable): Promise<void> {
  const capacity = lock.rules.capacity[table];
  const [row] = table === 'users'
    ? await tx.select({ n: count() }).from(lockUsers).where(eq(lockUsers.lockId, lock.id))
    : await tx.select({ n: count() }).from(credentials).where(and(eq(credentials.lockId, lock.id), eq(credentials.slotTable, table)));
  // Slots the lock holds that nobody registered take room too.
  const [found] = await tx.select({ n: count() }).from(unmanagedSlots).where(and(eq(unmanagedSlots.lockId, lock.id), eq(unmanagedSlots.slotTable, table)));
  if ((row?.n ?? 0) + (found?.n ?? 0) < capacity) return;
  const [zh, en] = TABLE_NAMES[table];
  throw new ApiError('CAPACITY_FULL', [{ field: 'body.lockId', message: { 'zh-CN': `该门锁${zh}容量已满（${capacity}）`, 'en-US': `The lock's ${en} slots are full (${capacity})` } }]);
}

/** The lowest slot of `table` no platform row of the lock holds and the lock does not hold unmanaged (capacity was checked before). */
export async function freeSlot(tx: Executor, lock: LockRow, table: 'users' | 'passwords' | 'cards'): Promise<number> {
  const used = new Set(table === 'users'
    ? (await tx.select({ slot: lockUsers.userSlot }).from(lockUsers).where(eq(lockUsers.lockId, lock.id))).map((r) => r.slot)
    : (await tx.select({ slot: credentials.slot }).from(credentials).where(and(eq(credentials.lockId, lock.id), eq(credentials.slotTable, table)))).map((r) => r.slot));
  // Never a slot the lock holds unmanaged (added at its keypad).
  for (const row of await tx.select({ slot: unmanagedSlots.slot }).from(unmanagedSlots).where(and(eq(unmanagedSlots.lockId, lock.id), eq(unmanagedSlots.slotTable, table)))) used.add(row.slot);
  let slot = 0;
  while (used.has(slot)) slot++;
  return slot;
}

/** The digits of every password on the lock (decrypted in memory only). */
async function lockDigits(tx: Executor, lockId: number, box: SecretBox): Promise<string[]> {
  const rows = await tx.select({ enc: credentials.secretEnc }).from(credentials)
    .where(and(eq(credentials.lockId, lockId), inArray(credentials.kind, ['password', 'tempPassword'])));
  return rows.flatMap((row) => (row.enc ? [box.open(row.enc)] : []));
}

/** 409 DUPLICATE_CREDENTIAL when the same digits are already on the lock (compared by decrypting). */
export async function checkDuplicateDigits(tx: Executor, lockId: number, digits: string, box: SecretBox): Promise<void> {
  if ((await lockDigits(tx, lockId, box)).includes(digits)) {
    throw new ApiError('DUPLICATE_CREDENTIAL', [{ field: 'body.password', message: { 'zh-CN': '该门锁上已有相同的密码', 'en-US': 'This lock already has the same password' } }]);
  }
}

/** Random digits of the model's minimum length not yet on the lock. */
export async function drawDigits(tx: Executor, lock: LockRow, box: SecretBox): Promise<string> {
  const taken = new Set(await lockDigits(tx, lock.id, box));
  const { min } = lock.rules.passwordDigits;
  for (;;) {
    const digits = Array.from({ length: min }, () => String(randomInt(10))).join('');
    if (!taken.has(digits)) return digits;
  }
}

/** Reverses the byte order of a hex card number ("A1B2C3D4" -> "D4C3B2A1"). */
export const reverseBytes = (hex: string) => (hex.match(/../g) ?? []).reverse().join('');
/** The number as the lock reads it (upper-case, byte order corrected). */
export const canonicalCard = (cardNumber: string, reversed: boolean) => (reversed ? reverseBytes(cardNumber) : cardNumber).toUpperCase();

/** 409 DUPLICATE_CREDENTIAL when the same card (as the lock reads it) is already on the lock. */
export async function checkDuplicateCard(tx: Executor, lockId: number, cardNumber: string, reversed: boolean): Promise<void> {
  const rows = await tx.select({ cardNumber: credentials.cardNumber, reversed: credentials.reversed }).from(credentials)
    .where(and(eq(credentials.lockId, lockId), eq(credentials.kind, 'card')));
  const wanted = canonicalCard(cardNumber, reversed);
  if (rows.some((row) => row.cardNumber && canonicalCard(row.cardNumber, row.reversed) === wanted)) {
    throw new ApiError('DUPLICATE_CREDENTIAL', [{ field: 'body.cardNumber', message: { 'zh-CN': '该门锁上已有相同的卡片', 'en-US': 'This lock already has the same card' } }]);
  }
}

/** A lock user's Matter user type, credential rule and expiry minutes. */
export interface UserKind {
  userType: UserType;
  credentialRule: CredentialRule;
  expiringMinutes: number | null;
}

/**
 * The user's type after a change (`current` kept where `body` says nothing): an expiringUser
 * needs `expiringMinutes` (and only it may have them); a dual credential rule needs a device type that
 * supports it (CredentialRulesSupport). 400 naming the field otherwise.
 */
export function checkUserType(rules: LockModel, current: UserKind, body: { userType?: UserType; credentialRule?: CredentialRule; expiringMinutes?: number }): UserKind {
  const userType = body.userType ?? current.userType;
  const credentialRule = body.credentialRule ?? current.credentialRule;
  const expiringMinutes = userType === 'expiringUser' ? (body.expiringMinutes ?? current.expiringMinutes) : null;
  if (userType === 'expiringUser' && expiringMinutes === null) throw fieldError('body.expiringMinutes', '首次使用后限时用户须填写有效分钟数', 'An expiring user needs expiringMinutes');
  if (userType !== 'expiringUser' && body.expiringMinutes !== undefined) throw fieldError('body.expiringMinutes', '只有首次使用后限时用户有有效分钟数', 'Only an expiring user has expiringMinutes');
  if (!rules.access.credentialRulesSupport.includes(credentialRule)) {
    throw fieldError('body.credentialRule', '该门锁的设备类型不支持双人开门', "This lock's device type does not support the dual credential rule");
  }
  return { userType, credentialRule, expiringMinutes };
}
