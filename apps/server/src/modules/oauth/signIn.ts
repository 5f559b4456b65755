/**
 * Sign-in: throttle -> captcha -> decrypt -> verify -> issue token.
 * Every attempt is written to the system log without the password. Throttling counts failed
 * attempts (wrong password) of the last 15 minutes in the system log itself, so it holds across
 * server instances, and it can never lock an owner out (docs/deploy.md "Sign-in throttling"):
 * - one address: SIGN_IN_MAX_FAILURES_PER_ADDRESS failures (any usernames) -> 429 from that address;
 * - one username from one address: SIGN_IN_MAX_FAILURES failures -> 429 for that pair only;
 * - one username from anywhere: SIGN_IN_MAX_FAILURES failures -> a captcha is required (even with
 *   AUTH_CAPTCHA=off) and each attempt waits a growing delay (0.5 s doubling, at most 4 s). The right
 *   password with the right captcha from an address that is not itself throttled always signs in.
 * The client address is the socket's peer unless TRUST_PROXY names the proxy in front.
 * Two-factor: an account with it on gets a challenge instead of a token; the token comes
 * from signInSecondFactor, whose failures (TWO_FACTOR_INVALID) count in the same throttling.
 * Every attempt on an existing account is also kept in its sign-in history (history.ts).
 */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { ACCOUNT_TYPE_ADMIN, SIGN_IN_RESULTS, type SignInMethod, type SignInResult, type signInBody, TWO_FACTOR_CHALLENGE_S, type twoFactorSignInBody } from '@iot/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { insertAudit, signInFailures } from '../audit/repo.js';
import { consumeCaptcha } from './captcha.js';
import { decryptPassword, findKeyPair } from './keys.js';
import { secretBoxFor } from '../../crypto/secret-box.js';
import { issueChallenge, readChallenge } from '../twoFactor/challenge.js';
import { checkSecondFactor, isTwoFactorOn } from '../twoFactor/check.js';
import { type ClientOf, recordSignIn } from './history.js';
import { verifyPassword } from './passwords.js';
import { passwordSignInRefused, type SsoOrigin } from './sso-sessions.js';
import { issueToken } from './tokens.js';

const THROTTLE_WINDOW_S = 15 * 60;
const DELAY_FIRST_MS = 500;
const DELAY_MAX_MS = 4_000;

/** The wait before answering an attempt on a username with `failures` recent failures, ms. */
export function signInDelayMs(failures: number, maxFailures: number): number {
  return failures < maxFailures ? 0 : Math.min(DELAY_MAX_MS, DELAY_FIRST_MS * 2 ** Math.min(failures - maxFailures, 10));
}

export interface SignInContext extends ClientOf {
  db: Db;
  config: Config;
  tenantId: number;
}

/** Writes an attempt's system-log row and, on an existing account, its sign-in history row (history.ts); accountId undefined: looked up by username. */
type Audit = (result: string, accountId?: number | null) => Promise<void>;

/**
 * Writes the system-log rows of `username`'s attempts: action `sign-in` with, on an existing account,
 * its sign-in history row (history.ts) by `method`; or action `step-up` (twoFactor/step-up.ts), which is
 * not a sign-in and has no history row.
 */
export const auditOf = (ctx: SignInContext, username: string, method: SignInMethod | 'step-up'): Audit => async (result, accountId) => {
  const action = method === 'step-up' ? 'step-up' : 'sign-in';
  await insertAudit(ctx.db, { tenantId: ctx.tenantId, accountId: accountId ?? null, username, action, result, clientIp: ctx.clientIp });
  if (method === 'step-up') return;
  const historyResult = result === 'TWO_FACTOR_REQUIRED' ? 'twoFactorPending' : result;
  if (!(SIGN_IN_RESULTS as readonly string[]).includes(historyResult)) return;
  const id = accountId === undefined ? (await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.username, username)))[0]?.id : accountId;
  if (id != null) await recordSignIn(ctx.db, id, ctx, method, historyResult as SignInResult);
};

/** Refuses a throttled address or pair (429), waits the username's delay; true when a captcha is due regardless of AUTH_CAPTCHA. */
export async function throttle(ctx: SignInContext, username: string, audit: Audit): Promise<boolean> {
  const { config } = ctx;
  const failures = await signInFailures(ctx.db, username, ctx.clientIp, THROTTLE_WINDOW_S);
  if (failures.address >= config.SIGN_IN_MAX_FAILURES_PER_ADDRESS || failures.pair >= config.SIGN_IN_MAX_FAILURES) {
    await audit('TOO_MANY_ATTEMPTS');
    throw new ApiError('TOO_MANY_ATTEMPTS');
  }
  await sleep(signInDelayMs(failures.username, config.SIGN_IN_MAX_FAILURES));
  return failures.username >= config.SIGN_IN_MAX_FAILURES;
}

/** Issues the token of a fresh sign-in of `accountId` (password, or single sign-on begun at `sso`) and its token response. */
export const tokenOf = async (ctx: SignInContext, accountId: number, sso?: SsoOrigin) => {
  const { config } = ctx;
  const token = await issueToken(ctx.db, accountId, { idleS: config.TOKEN_IDLE_S, absoluteS: config.TOKEN_ABSOLUTE_S, rotateS: config.TOKEN_ROTATE_S }, ctx, sso);
  return { access_token: token, token_type: 'bearer' as const, expires_in: config.TOKEN_IDLE_S };
};

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
