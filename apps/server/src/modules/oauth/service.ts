/**
 * Sign-in (issue #2 "Sign-in", #10 "Abuse"): throttle -> captcha -> decrypt -> verify -> issue token.
 * Every attempt is written to the system log without the password. Throttling counts failed
 * attempts (wrong password) of the last 15 minutes in the system log itself, so it holds across
 * server instances, and it can never lock an owner out (docs/deploy.md "Sign-in throttling"):
 * - one address: SIGN_IN_MAX_FAILURES_PER_ADDRESS failures (any usernames) -> 429 from that address;
 * - one username from one address: SIGN_IN_MAX_FAILURES failures -> 429 for that pair only;
 * - one username from anywhere: SIGN_IN_MAX_FAILURES failures -> a captcha is required (even with
 *   AUTH_CAPTCHA=off) and each attempt waits a growing delay (0.5 s doubling, at most 4 s). The right
 *   password with the right captcha from an address that is not itself throttled always signs in.
 * The client address is the socket's peer unless TRUST_PROXY names the proxy in front.
 */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { signInBody } from '@iot/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { insertAudit, signInFailures } from '../audit/repo.js';
import { consumeCaptcha } from './captcha.js';
import { decryptPassword, findKeyPair } from './keys.js';
import { verifyPassword } from './passwords.js';
import { issueToken } from './tokens.js';

const THROTTLE_WINDOW_S = 15 * 60;
const DELAY_FIRST_MS = 500;
const DELAY_MAX_MS = 4_000;

/** The wait before answering an attempt on a username with `failures` recent failures, ms. */
export function signInDelayMs(failures: number, maxFailures: number): number {
  return failures < maxFailures ? 0 : Math.min(DELAY_MAX_MS, DELAY_FIRST_MS * 2 ** Math.min(failures - maxFailures, 10));
}

export interface SignInContext {
  db: Db;
  config: Config;
  tenantId: number;
  clientIp: string;
}

/** Signs in; returns the token response. Throws ApiError: TOO_MANY_ATTEMPTS, CAPTCHA_INVALID, KEY_EXPIRED, VALIDATION_FAILED, INVALID_CREDENTIALS, ACCOUNT_DISABLED. */
export async function signIn(ctx: SignInContext, input: z.output<typeof signInBody>) {
  const { db, config } = ctx;
  const audit = (result: string, accountId: number | null = null) =>
    insertAudit(db, { tenantId: ctx.tenantId, accountId, username: input.username, action: 'sign-in', result, clientIp: ctx.clientIp });

  const failures = await signInFailures(db, input.username, ctx.clientIp, THROTTLE_WINDOW_S);
  if (failures.address >= config.SIGN_IN_MAX_FAILURES_PER_ADDRESS || failures.pair >= config.SIGN_IN_MAX_FAILURES) {
    await audit('TOO_MANY_ATTEMPTS');
    throw new ApiError('TOO_MANY_ATTEMPTS');
  }
  const suspicious = failures.username >= config.SIGN_IN_MAX_FAILURES;
  await sleep(signInDelayMs(failures.username, config.SIGN_IN_MAX_FAILURES));
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
  const token = await issueToken(db, account.id, { idleS: config.TOKEN_IDLE_S, absoluteS: config.TOKEN_ABSOLUTE_S, rotateS: config.TOKEN_ROTATE_S });
  await audit('success', account.id);
  return { access_token: token, token_type: 'bearer' as const, expires_in: config.TOKEN_IDLE_S };
}
