/**
 * Password sign-in: throttle -> captcha -> decrypt -> verify -> issue token (throttling and the
 * system-log and history rows of each attempt: oauth/attempts.ts). Two-factor: an account with it on
 * gets a challenge instead of a token; the token comes from signInSecondFactor, whose failures
 * (TWO_FACTOR_INVALID) count in the same throttling.
 */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { ACCOUNT_TYPE_ADMIN, type signInBody, TWO_FACTOR_CHALLENGE_S, type twoFactorSignInBody } from '@iot/contract';
import { accounts } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { secretBoxFor } from '../../crypto/secret-box.js';
import { auditOf, type SignInContext, throttle, tokenOf } from '../oauth/attempts.js';
import { consumeCaptcha } from '../oauth/captcha.js';
import { decryptPassword, findKeyPair } from '../oauth/keys.js';
import { verifyPassword } from '../oauth/passwords.js';
import { passwordSignInRefused } from '../oauth/sso-sessions.js';
import { issueChallenge, readChallenge } from '../twoFactor/challenge.js';
import { checkSecondFactor, isTwoFactorOn } from '../twoFactor/check.js';

/**
 * Signs in; returns the token response, or a two-factor challenge for an account with two-factor on.
 * Throws ApiError: TOO_MANY_ATTEMPTS, CAPTCHA_INVALID, KEY_EXPIRED, VALIDATION_FAILED, INVALID_CREDENTIALS, ACCOUNT_DISABLED,
 * PASSWORD_SIGN_IN_OFF (an operator of a data centre that signs in with SSO only; administrators are exempt).
 */
export async function signIn(ctx: SignInContext, input: z.output<typeof signInBody>) {
  const { db, config } = ctx;
  const audit = auditOf(ctx, input.username, 'password');
  const suspicious = await throttle(ctx, input.username, audit);
  if ((config.AUTH_CAPTCHA || suspicious) && !(await consumeCaptcha(db, input.checkCodeId, input.checkCode))) {
    await audit('CAPTCHA_INVALID');
    throw new ApiError('CAPTCHA_INVALID');
  }
  const pair = await findKeyPair(db, input.keyId);
  if (!pair) throw new ApiError('KEY_EXPIRED');
  const password = decryptPassword(pair, input.password);
  if (password === undefined) {
    throw fieldError('body.password', '密码未按 RSA-OAEP 加密', 'The password is not RSA-OAEP encrypted');
  }
  const [account] = await db.select().from(accounts).where(eq(accounts.username, input.username));
  if (!(await verifyPassword(account?.passwordHash, password)) || !account) {
    await audit('INVALID_CREDENTIALS', account?.id ?? null);
    throw new ApiError('INVALID_CREDENTIALS');
  }
  if (!account.enabled) {
    await audit('ACCOUNT_DISABLED', account.id);
    throw new ApiError('ACCOUNT_DISABLED');
  }
  if (account.type !== ACCOUNT_TYPE_ADMIN && (await passwordSignInRefused(db, account.id, ctx.tenantId))) {
    await audit('PASSWORD_SIGN_IN_OFF', account.id);
    throw new ApiError('PASSWORD_SIGN_IN_OFF');
  }
  if (await isTwoFactorOn(db, account.id)) {
    await audit('TWO_FACTOR_REQUIRED', account.id);
    return { twoFactorRequired: true as const, challenge: issueChallenge(config, account.id), expires_in: TWO_FACTOR_CHALLENGE_S };
  }
  const token = await tokenOf(ctx, account.id);
  await audit('success', account.id);
  return token;
}

/**
 * The second step of a two-factor sign-in: the challenge of the password step with an authenticator
 * code or a recovery code (used up). Throws ApiError: TWO_FACTOR_CHALLENGE_EXPIRED, TOO_MANY_ATTEMPTS,
 * TWO_FACTOR_INVALID (counted as a failed sign-in), ACCOUNT_DISABLED.
 */
export async function signInSecondFactor(ctx: SignInContext, input: z.output<typeof twoFactorSignInBody>) {
  const accountId = readChallenge(ctx.config, input.challenge);
  const [account] = accountId === undefined ? [] : await ctx.db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new ApiError('TWO_FACTOR_CHALLENGE_EXPIRED');
  const audit = auditOf(ctx, account.username, 'passwordTwoFactor');
  await throttle(ctx, account.username, audit);
  if (!account.enabled) {
    await audit('ACCOUNT_DISABLED', account.id);
    throw new ApiError('ACCOUNT_DISABLED');
  }
  if (!(await checkSecondFactor(ctx.db, secretBoxFor(ctx.config), account.id, input.code))) {
    await audit('TWO_FACTOR_INVALID', account.id);
    throw new ApiError('TWO_FACTOR_INVALID');
  }
  const token = await tokenOf(ctx, account.id);
  await audit('success', account.id);
  return token;
}
