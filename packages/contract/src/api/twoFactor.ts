/**
 * Two-factor sign-in (docs/identity.md): time-based one-time
 * passwords (TOTP, RFC 6238: HMAC-SHA-1, 30 s steps, 6 digits, the usual authenticator apps) and 10
 * one-time recovery codes. An account enrols itself (begin: a new secret as an otpauth URI and its QR
 * code; confirm: a valid code turns it on and answers the recovery codes, once). With two-factor on,
 * POST /oauth/token answers a short-lived challenge instead of a token, and the challenge with a code
 * (or a recovery code) at POST /oauth/token/twoFactor answers the token. A role may require two-factor:
 * an account bound to such a role and not enrolled gets a session that reaches only the endpoints
 * marked `duringEnrolment` (403 TWO_FACTOR_ENROLMENT_REQUIRED elsewhere) until it enrols; so does
 * every platform administrator when the platform runs with DEMO=off. Step-up: endpoints marked `stepUp`
 * need, from an enrolled account's session, a code given at POST /iot/v1/twoFactor/stepUp within the
 * last STEP_UP_WINDOW_MS (403 STEP_UP_REQUIRED otherwise).
 */
import { z } from 'zod';
import { recordId } from './account.js';
import { endpoint } from './endpoint.js';
import { FIRST_LOAD_ROUTES } from './firstLoad.js';
import { text } from './input.js';

/** TOTP parameters (RFC 6238 §4: T0 = 0, X = 30 s; RFC 4226 6 digits, HMAC-SHA-1). */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Recovery codes handed out at enrolment, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/**
 * How long a verified second factor lets a session make dangerous calls (endpoints marked `stepUp`),
 * ms: 5 minutes.
 */
export const STEP_UP_WINDOW_MS = 5 * 60 * 1000;
/** How long the challenge of a password sign-in waits for its second factor, s. */
export const TWO_FACTOR_CHALLENGE_S = 300;

/** A code from the authenticator (6 digits) or a recovery code (`xxxxx-xxxxx`, letters and digits). */
export const twoFactorCode = text().trim().min(6).max(11).regex(/^(\d{6}|[0-9a-z]{5}-[0-9a-z]{5})$/i);

export const twoFactorConfirmBody = z.strictObject({ code: text().trim().regex(/^\d{6}$/) });
/** A step-up: the authenticator code or a recovery code (used up). */
export const twoFactorStepUpBody = z.strictObject({ code: twoFactorCode });
export const twoFactorResetBody = z.strictObject({ accountId: recordId });
export const twoFactorSignInBody = z.strictObject({
  /** The `challenge` of the password step. */
  challenge: text().min(1).max(200),
  code: twoFactorCode,
});

export const twoFactorStatus = z.object({
  /** Two-factor is on for the account. */
  enabled: z.boolean(),
  /** A role of the account requires two-factor. */
  required: z.boolean(),
  /** Recovery codes not used yet (0 while not enrolled). */
  recoveryCodesLeft: z.number().int(),
});

export const twoFactorEnrolment = z.object({
  /** `otpauth://totp/…` (Key Uri Format) for authenticator apps. */
  uri: z.string(),
  /** The same URI as a QR code, `data:image/png;base64,…`. */
  qrCode: z.string(),
  /** The secret in base32, for typing into an app that cannot scan. */
  secret: z.string(),
});

/** The recovery codes, shown once. */
export const twoFactorRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });

/** The password step's answer when the account has two-factor on: no token yet. */
export const twoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
  /** Lifetime of the challenge, s. */
  expires_in: z.number().int(),
});

export const twoFactorEndpoints = {
  status: endpoint({ method: 'GET', path: '/iot/v1/twoFactor', access: 'authenticated', kind: 'token', duringEnrolment: true, response: twoFactorStatus }),
  begin: endpoint({
    method: 'POST', path: '/iot/v1/twoFactor/begin', access: 'authenticated', kind: 'token', duringEnrolment: true,
    action: { label: { 'zh-CN': '开始登记两步验证', 'en-US': 'Begin two-factor enrolment' } }, response: twoFactorEnrolment,
  }),
  confirm: endpoint({
    method: 'POST', path: '/iot/v1/twoFactor/confirm', access: 'authenticated', kind: 'token', duringEnrolment: true,
    action: { label: { 'zh-CN': '启用两步验证', 'en-US': 'Turn on two-factor' } }, body: twoFactorConfirmBody, response: twoFactorRecoveryCodes,
  }),
  reset: endpoint({
    method: 'POST', path: '/iot/v1/twoFactor/reset', access: 'LOGIN_ACCOUNT', kind: 'token',
    action: { label: { 'zh-CN': '重置两步验证', 'en-US': 'Reset two-factor' }, target: ['accountId'] },
    body: twoFactorResetBody, response: z.null(), stepUp: true,
  }),
  /**
   * The caller turns its own two-factor off (a lost phone is an administrator's reset instead). A
   * dangerous action: a step-up within STEP_UP_WINDOW_MS first. 403 TWO_FACTOR_REQUIRED while a role
   * (or DEMO=off, for a platform administrator) requires it; 409 TWO_FACTOR_OFF when it is not on.
   */
  disable: endpoint({
    method: 'POST', path: '/iot/v1/twoFactor/disable', access: 'authenticated', kind: 'token',
    action: { label: { 'zh-CN': '停用两步验证', 'en-US': 'Turn off two-factor' } }, response: z.null(), stepUp: true,
  }),
  /**
   * Replaces the caller's recovery codes with 10 new ones (the old ones stop working), shown once.
   * After a step-up, like disable; 409 TWO_FACTOR_OFF when two-factor is not on.
   */
  recoveryCodes: endpoint({
    method: 'POST', path: '/iot/v1/twoFactor/recoveryCodes', access: 'authenticated', kind: 'token',
    action: { label: { 'zh-CN': '重新生成恢复码', 'en-US': 'Regenerate recovery codes' } }, response: twoFactorRecoveryCodes, stepUp: true,
  }),
  /**
   * Proves the second factor again for the caller's session (step-up): a TOTP code (once per time
   * step) or a recovery code (used up). Failures answer 401 TWO_FACTOR_INVALID and count in sign-in
   * throttling (429 TOO_MANY_ATTEMPTS); the system log records each attempt (action `step-up`).
   * API keys get 403 FORBIDDEN (they hold no second factor).
   */
  stepUp: endpoint({
    method: 'POST', path: '/iot/v1/twoFactor/stepUp', access: 'authenticated', kind: 'token', body: twoFactorStepUpBody,
    response: z.object({ validForMs: z.number().int() }),
  }),
  signIn: endpoint({
    ...FIRST_LOAD_ROUTES.twoFactor.signIn, body: twoFactorSignInBody,
    response: z.object({ access_token: z.string(), token_type: z.literal('bearer'), expires_in: z.number().int() }),
  }),
};
