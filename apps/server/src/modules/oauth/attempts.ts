/**
 * Sign-in attempts, shared by password sign-in (modules/signIn/password.ts), single sign-on
 * (modules/sso) and step-up (modules/twoFactor/step-up.ts): their throttling, their system-log and
 * sign-in history rows, and the token of a successful one.
 * Every attempt is written to the system log without the password. Throttling counts failed
 * attempts (wrong password) of the last 15 minutes in the system log itself, so it holds across
 * server instances, and it can never lock an owner out (docs/deploy.md "Sign-in throttling"):
 * - one address: SIGN_IN_MAX_FAILURES_PER_ADDRESS failures (any usernames) -> 429 from that address;
 * - one username from one address: SIGN_IN_MAX_FAILURES failures -> 429 for that pair only;
 * - one username from anywhere: SIGN_IN_MAX_FAILURES failures -> a captcha is required (even with
 *   AUTH_CAPTCHA=off) and each attempt waits a growing delay (0.5 s doubling, at most 4 s). The right
 *   password with the right captcha from an address that is not itself throttled always signs in.
 * The client address is the socket's peer unless TRUST_PROXY names the proxy in front.
 * Every attempt on an existing account is also kept in its sign-in history (history.ts).
 */
import { eq } from 'drizzle-orm';
import { SIGN_IN_RESULTS, type SignInMethod, type SignInResult } from '@iot/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { insertAudit, signInFailures } from '../auditLog/repo.js';
import { type ClientOf, recordSignIn } from './history.js';
import type { SsoOrigin } from './sso-sessions.js';
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
