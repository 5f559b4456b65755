/**
 * Two-factor enrolment of an account (docs/identity.md "Two-factor sign-in"): status,
 * enrolment (begin, confirm), an administrator's reset; the second-factor check of sign-in is
 * check.ts. With check.ts, the only writer of `two_factors`. Enrolment and reset run in the caller's tenant transaction (its
 * system-log row in it; row-level security shows the rows of the accounts the tenant sees) and emit
 * `account.changed`, so cached principals (whether the session must still enrol) are read again.
 * The account itself may turn it off (unless required) and renew its recovery codes, both after a step-up.
 * Errors: 409 TWO_FACTOR_ALREADY_ON (begin while on), 409 TWO_FACTOR_NOT_PENDING (confirm without a
 * begin), 401 TWO_FACTOR_INVALID (a wrong confirmation code), 404 NOT_FOUND (reset of an account
 * without two-factor, or one the tenant does not see), 403 ESCALATION (reset of a stronger account),
 * 403 TWO_FACTOR_REQUIRED (turning off what a role requires), 409 TWO_FACTOR_OFF.
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { accountRoles, roles, twoFactors } from '../../db/schema.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { emit } from '../../events/emit.js';
import { ApiError } from '../../http/api-error.js';
import type { Principal } from '../../http/context.js';
import { ACCOUNT_TYPE_ADMIN, type Authority } from '@iot/contract';
import { loadManagedAccount } from '../account/guard.js';
import { isTwoFactorOn } from './check.js';
import { acceptedStep, enrolmentOf, hashRecoveryCode, newRecoveryCodes, newTotpSecret } from './totp.js';

/**
 * True when the platform requires two-factor of an account of `type` whatever its roles: every
 * platform administrator (type 0) when the platform runs with DEMO=off.
 */
export const requiredByPlatform = (config: { DEMO: boolean }, type: number) => !config.DEMO && type === ACCOUNT_TYPE_ADMIN;

/**
 * Whether two-factor is on for the account, whether it is required (a role requires it, or
 * `requiredAnyway`: requiredByPlatform), and the recovery codes left.
 */
export async function twoFactorStatus(db: Executor, accountId: number, requiredAnyway: boolean) {
  const [row] = await db.select({ enabledAt: twoFactors.enabledAt, left: sql<number>`cardinality(${twoFactors.recoveryCodeHashes})`.mapWith(Number) })
    .from(twoFactors).where(eq(twoFactors.accountId, accountId));
  const [required] = await db.select({ one: sql`1` }).from(accountRoles).innerJoin(roles, eq(roles.id, accountRoles.roleId))
    .where(and(eq(accountRoles.accountId, accountId), eq(roles.requiresTwoFactor, true))).limit(1);
  const enabled = Boolean(row?.enabledAt);
  return { enabled, required: requiredAnyway || Boolean(required), recoveryCodesLeft: enabled ? (row?.left ?? 0) : 0 };
}

/** Starts (or restarts) the caller's enrolment with a new secret; answers its otpauth URI, QR code and base32 secret. */
export async function beginEnrolment(tx: Tx, box: SecretBox, principal: Principal) {
  if (await isTwoFactorOn(tx, principal.accountId)) throw new ApiError('TWO_FACTOR_ALREADY_ON');
  const secret = newTotpSecret();
  const sealedSecret = box.seal(secret);
  await tx.insert(twoFactors).values({ accountId: principal.accountId, sealedSecret })
    .onConflictDoUpdate({ target: twoFactors.accountId, set: { sealedSecret, lastTimeStep: null, recoveryCodeHashes: [], createdAt: sql`now()` } });
  return { ...(await enrolmentOf(secret, principal.username)), secret };
}

/** Turns two-factor on with a valid code of the pending secret; answers the recovery codes (shown once). */
export async function confirmEnrolment(tx: Tx, box: SecretBox, accountId: number, code: string): Promise<{ recoveryCodes: string[] }> {
  const [row] = await tx.select().from(twoFactors).where(and(eq(twoFactors.accountId, accountId), isNull(twoFactors.enabledAt))).for('update');
  if (!row) throw new ApiError('TWO_FACTOR_NOT_PENDING');
  const step = acceptedStep(box.open(row.sealedSecret), code, null);
  if (step === undefined) throw new ApiError('TWO_FACTOR_INVALID');
  const recoveryCodes = newRecoveryCodes();
  await tx.update(twoFactors).set({ enabledAt: sql`now()`, lastTimeStep: step, recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode) })
    .where(eq(twoFactors.accountId, accountId));
  await emit(tx, 'account.changed', { tenantId: null, accountId });
  return { recoveryCodes };
}

/**
 * An administrator (LOGIN_ACCOUNT, under the no-escalation rules of account/guard.ts) turns off
 * account `accountId`'s two-factor: it enrols again (at its next sign-in when a role requires it).
 * `targetAuthorities`: account/guard.ts authoritiesEverywhere, read before the transaction.
 */
export async function resetTwoFactor(tx: Tx, principal: Principal, accountId: number, targetAuthorities: readonly Authority[]): Promise<null> {
  await loadManagedAccount(tx, principal, accountId, targetAuthorities);
  const removed = await tx.delete(twoFactors).where(eq(twoFactors.accountId, accountId)).returning({ accountId: twoFactors.accountId });
  if (removed.length === 0) throw new ApiError('NOT_FOUND');
  await emit(tx, 'account.changed', { tenantId: null, accountId });
  return null;
}

/**
 * The caller turns its own two-factor off (after a step-up, enforced by the contract's `stepUp`).
 * `required`: twoFactorStatus(...).required, read before. Errors: 403 TWO_FACTOR_REQUIRED, 409 TWO_FACTOR_OFF.
 */
export async function disableOwnTwoFactor(tx: Tx, accountId: number, required: boolean): Promise<null> {
  if (!(await isTwoFactorOn(tx, accountId))) throw new ApiError('TWO_FACTOR_OFF');
  if (required) throw new ApiError('TWO_FACTOR_REQUIRED');
  await tx.delete(twoFactors).where(eq(twoFactors.accountId, accountId));
  await emit(tx, 'account.changed', { tenantId: null, accountId });
  return null;
}

/** Replaces the caller's recovery codes with RECOVERY_CODE_COUNT new ones, answered once. Errors: 409 TWO_FACTOR_OFF. */
export async function renewRecoveryCodes(tx: Tx, accountId: number): Promise<{ recoveryCodes: string[] }> {
  const recoveryCodes = newRecoveryCodes();
  const renewed = await tx.update(twoFactors).set({ recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode) })
    .where(and(eq(twoFactors.accountId, accountId), isNotNull(twoFactors.enabledAt))).returning({ accountId: twoFactors.accountId });
  if (renewed.length === 0) throw new ApiError('TWO_FACTOR_OFF');
  return { recoveryCodes };
}
