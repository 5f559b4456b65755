/**
 * Step-up (docs/identity.md): a signed-in person proves the second factor again
 * before dangerous calls (contract endpoints marked `stepUp`, checked by http/auth-plugin.ts). A valid
 * TOTP code (once per time step) or recovery code (used up) records the time on every live token of
 * the sign-in (`sessions.step_up_at`, carried over by rotation) and emits `account.changed`, so no
 * instance's principal cache keeps serving the old time. Attempts are throttled and logged exactly
 * like the second step of a sign-in (signIn/password.ts), under action `step-up`.
 * Errors: 401 TWO_FACTOR_INVALID (wrong or used code, or two-factor off), 429 TOO_MANY_ATTEMPTS,
 * 403 FORBIDDEN for an API key (it holds no second factor).
 */
import { STEP_UP_WINDOW_MS } from '@iot/contract';
import { secretBoxFor } from '../../crypto/secret-box.js';
import { emit } from '../../events/emit.js';
import { ApiError } from '../../http/api-error.js';
import type { Principal } from '../../http/context.js';
import { insertAudit } from '../auditLog/repo.js';
import { auditOf, type SignInContext, throttle } from '../oauth/attempts.js';
import { recordStepUp } from '../oauth/sessions.js';
import { checkSecondFactor } from './check.js';

const KEYS_CANNOT_STEP_UP = { 'zh-CN': 'API 密钥没有两步验证，不能进行再次验证', 'en-US': 'An API key holds no second factor and cannot step up' };

/** Verifies `code` for the caller's sign-in and records the step-up; answers how long it lasts, ms. */
export async function stepUp(ctx: SignInContext, principal: Principal, code: string): Promise<{ validForMs: number }> {
  if (principal.apiKey) throw new ApiError('FORBIDDEN', undefined, KEYS_CANNOT_STEP_UP);
  const audit = auditOf(ctx, principal.username, 'step-up');
  await throttle(ctx, principal.username, audit);
  if (!(await checkSecondFactor(ctx.db, secretBoxFor(ctx.config), principal.accountId, code))) {
    await audit('TWO_FACTOR_INVALID', principal.accountId);
    throw new ApiError('TWO_FACTOR_INVALID');
  }
  await ctx.db.transaction(async (tx) => {
    await recordStepUp(tx, principal.family);
    await emit(tx, 'account.changed', { tenantId: null, accountId: principal.accountId });
    await insertAudit(tx, { tenantId: ctx.tenantId, accountId: principal.accountId, username: principal.username, action: 'step-up', result: 'success', clientIp: ctx.clientIp });
  });
  return { validForMs: STEP_UP_WINDOW_MS };
}

/** True when a step-up at `stepUpAt` (local ms, null: never) still covers a call at `nowMs`. */
export function steppedUp(stepUpAt: number | null, nowMs = Date.now()): boolean {
  return stepUpAt !== null && nowMs - stepUpAt < STEP_UP_WINDOW_MS;
}
