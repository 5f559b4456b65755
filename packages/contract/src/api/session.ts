/**
 * Sign-ins and sessions of an account (docs/identity.md "Sessions"): the live
 * sessions (one per sign-in not signed out and not expired, its rotated tokens counted as one) with
 * "sign out this session" and "sign out all other sessions", and the sign-in history (every attempt on
 * an existing account: password step, two-factor step, an API key's first use of the day). The own
 * calls need only a signed-in person; an account manager (LOGIN_ACCOUNT) reaches another account's under
 * the no-escalation rules of account management.
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { int4Id } from './input.js';

/**
 * How a sign-in was made. `passwordTwoFactor`: the second step after the password; `apiKey`: a key's
 * first use in a day (of its data centre's time zone); `sso`: single sign-on through the OpenID provider
 * (its second step, two-factor on, is recorded as `passwordTwoFactor`: the same step).
 */
export const SIGN_IN_METHODS = ['password', 'passwordTwoFactor', 'apiKey', 'sso'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/**
 * What an attempt came to: `success`, `twoFactorPending` (the password was right, a second factor was
 * asked for), or the error code it was refused with.
 */
export const SIGN_IN_RESULTS = [
  'success', 'twoFactorPending', 'INVALID_CREDENTIALS', 'CAPTCHA_INVALID', 'TWO_FACTOR_INVALID', 'TOO_MANY_ATTEMPTS', 'ACCOUNT_DISABLED',
  'SSO_NO_RULE', 'PASSWORD_SIGN_IN_OFF',
] as const;
export type SignInResult = (typeof SIGN_IN_RESULTS)[number];

/** Sign-in history rows kept per account (older ones go as new ones come); the retention job also drops rows older than the configured days. */
export const SIGN_IN_HISTORY_MAX_PER_ACCOUNT = 1000;

/** One live session (sign-in). `id` names it in revoke calls. Times ISO 8601 UTC. */
export const sessionRecord = z.object({
  id: z.number().int(),
  startedAt: z.string(),
  /** Last use as written (uses are written in batches, so up to about 20 s behind). */
  lastUsedAt: z.string(),
  /** When the sign-in ends at the latest (absolute lifetime). */
  expiresAt: z.string(),
  clientIp: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The session making this call. */
  current: z.boolean(),
});
export type SessionRecord = z.infer<typeof sessionRecord>;

/** One sign-in attempt. */
export const signInRecord = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  clientIp: z.string(),
  userAgent: z.string().nullable(),
  method: z.enum(SIGN_IN_METHODS),
  result: z.enum(SIGN_IN_RESULTS),
  /** The API key's name (method apiKey). */
  apiKeyName: z.string().nullable(),
});
export type SignInRecord = z.infer<typeof signInRecord>;

const accountIdQuery = z.object({ accountId: int4Id });
const sessionIdBody = z.strictObject({ id: int4Id });
const accountSessionBody = z.strictObject({ accountId: int4Id, id: int4Id });
const accountBody = z.strictObject({ accountId: int4Id });

const revokeLabel = { 'zh-CN': '退出会话', 'en-US': 'Sign out session' };
const revokeOthersLabel = { 'zh-CN': '退出其他所有会话', 'en-US': 'Sign out all other sessions' };

export const sessionEndpoints = {
  list: endpoint({ method: 'GET', path: '/iot/v1/session/list', access: 'authenticated', kind: 'token', response: z.array(sessionRecord) }),
  revoke: endpoint({
    method: 'POST', path: '/iot/v1/session/revoke', access: 'authenticated', kind: 'token', action: { label: revokeLabel, target: ['id'] },
    body: sessionIdBody, response: z.null(),
  }),
  /** Answers how many sessions were signed out. */
  revokeOthers: endpoint({
    method: 'POST', path: '/iot/v1/session/revokeOthers', access: 'authenticated', kind: 'token', action: { label: revokeOthersLabel },
    response: z.object({ revoked: z.number().int() }),
  }),
  /** Another account's (account managers). */
  account: {
    list: endpoint({ method: 'GET', path: '/iot/v1/session/account/list', access: 'LOGIN_ACCOUNT', kind: 'token', query: accountIdQuery, response: z.array(sessionRecord) }),
    revoke: endpoint({
      method: 'POST', path: '/iot/v1/session/account/revoke', access: 'LOGIN_ACCOUNT', kind: 'token',
      action: { label: revokeLabel, target: ['accountId'] }, body: accountSessionBody, response: z.null(),
    }),
    revokeAll: endpoint({
      method: 'POST', path: '/iot/v1/session/account/revokeAll', access: 'LOGIN_ACCOUNT', kind: 'token',
      action: { label: { 'zh-CN': '退出账号的所有会话', 'en-US': 'Sign out all sessions of an account' }, target: ['accountId'] },
      body: accountBody, response: z.object({ revoked: z.number().int() }),
    }),
  },
};

export const signInHistoryEndpoints = {
  /** The caller's sign-in history, newest first. */
  list: endpoint({ method: 'GET', path: '/iot/v1/signIn/history', access: 'authenticated', kind: 'token', query: pageQuery, response: pageOf(signInRecord) }),
  /** Another account's (account managers). */
  account: endpoint({
    method: 'GET', path: '/iot/v1/signIn/account/history', access: 'LOGIN_ACCOUNT', kind: 'token',
    query: pageQuery.extend(accountIdQuery.shape), response: pageOf(signInRecord),
  }),
};
