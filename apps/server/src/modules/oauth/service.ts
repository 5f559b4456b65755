/**
 * Sign-in (issue #2 "Sign-in"): throttle -> captcha -> decrypt -> verify -> issue token. Every
 * attempt is written to the system log without the password. Throttling counts this username's
 * failed attempts in the last 15 minutes (config SIGN_IN_MAX_FAILURES) from the system log itself,
 * so it holds across server instances.
 */
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { signInBody } from '@iot/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { countRecent, insertAudit } from '../audit/repo.js';
import { consumeCaptcha } from './captcha.js';
import { decryptPassword, findKeyPair } from './keys.js';
import { verifyPassword } from './passwords.js';
import { issueToken } from './tokens.js';

const THROTTLE_WINDOW_S = 15 * 60;

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

  const failures = await countRecent(db, input.username, 'sign-in', 'INVALID_CREDENTIALS', THROTTLE_WINDOW_S);
  if (failures >= config.SIGN_IN_MAX_FAILURES) {
    await audit('TOO_MANY_ATTEMPTS');
    throw new ApiError('TOO_MANY_ATTEMPTS');
  }
  if (config.AUTH_CAPTCHA && !(await consumeCaptcha(db, input.checkCodeId, input.checkCode))) {
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
