/**
 * The second factor at sign-in (docs/identity.md "Two-factor sign-in"): whether an account has
 * two-factor on, and the check of its code (TOTP or a recovery code, totp.ts), which uses the code up.
 */
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db, Executor } from '../../db/client.js';
import { twoFactors } from '../../db/schema.js';
import { acceptedStep, hashRecoveryCode, isRecoveryCode } from './totp.js';

/** True when two-factor is on for the account (sign-in then asks for the second factor). */
export async function isTwoFactorOn(db: Executor, accountId: number): Promise<boolean> {
  const [row] = await db.select({ accountId: twoFactors.accountId }).from(twoFactors)
    .where(and(eq(twoFactors.accountId, accountId), isNotNull(twoFactors.enabledAt)));
  return Boolean(row);
}

/**
 * The second factor of a sign-in (owner connection): a TOTP code at a time step later than the last
 * accepted one, or an unused recovery code, which is used up. True when accepted; concurrent uses of
 * one code or step: only one wins (conditional updates).
 */
export async function checkSecondFactor(db: Db, box: SecretBox, accountId: number, code: string): Promise<boolean> {
  const mine = and(eq(twoFactors.accountId, accountId), isNotNull(twoFactors.enabledAt));
  if (isRecoveryCode(code)) {
    const hash = hashRecoveryCode(code);
    const used = await db.update(twoFactors).set({ recoveryCodeHashes: sql`array_remove(${twoFactors.recoveryCodeHashes}, ${hash})` })
      .where(and(mine, sql`${hash} = any(${twoFactors.recoveryCodeHashes})`)).returning({ accountId: twoFactors.accountId });
    return used.length > 0;
  }
  const [row] = await db.select({ sealedSecret: twoFactors.sealedSecret, lastTimeStep: twoFactors.lastTimeStep }).from(twoFactors).where(mine);
  if (!row) return false;
  const step = acceptedStep(box.open(row.sealedSecret), code, row.lastTimeStep);
  if (step === undefined) return false;
  const claimed = await db.update(twoFactors).set({ lastTimeStep: step })
    .where(and(mine, or(isNull(twoFactors.lastTimeStep), lt(twoFactors.lastTimeStep, step)))).returning({ accountId: twoFactors.accountId });
  return claimed.length > 0;
}
