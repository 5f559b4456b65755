/**
 * An account's own contact details (docs/notifications.md "Recipients"): an e-mail
 * address, verified by a 6-digit code the platform e-mails to it (through the data centre's first
 * enabled e-mail channel), a mainland China mobile number (stored, no SMS yet) and the language of
 * e-mails to it. Every signed-in account reads and edits its own (`authenticated`); changing the
 * address un-verifies it. A code lives EMAIL_CODE_TTL_MS and allows EMAIL_CODE_ATTEMPTS wrong tries.
 */
import { z } from 'zod';
import { LANGUAGES, localized } from '../i18n.js';
import { endpoint } from './endpoint.js';
import { text } from './input.js';

/** How long an e-mail verification code is valid, ms (15 minutes). */
export const EMAIL_CODE_TTL_MS = 15 * 60 * 1000;
/** Wrong codes allowed before the code is spent (a new one must be sent). */
export const EMAIL_CODE_ATTEMPTS = 5;
/** A mainland China mobile number: 11 digits starting 13-19. */
export const MOBILE_CN = /^1[3-9]\d{9}$/;

export const accountContactBody = z.strictObject({
  /** null (or left out): no address. */
  email: z.email().max(254).nullable().default(null),
  mobile: text().trim().regex(MOBILE_CN).nullable().default(null),
  /** The language of e-mails to the account; null: the sending channel's. */
  language: z.enum(LANGUAGES).nullable().default(null),
});
export type AccountContactBody = z.output<typeof accountContactBody>;

export const accountContactRecord = z.object({
  email: z.string().nullable(),
  /** ISO 8601 UTC; null: not verified (or no address). */
  emailVerifiedAt: z.string().nullable(),
  mobile: z.string().nullable(),
  language: z.enum(LANGUAGES).nullable(),
  /** ISO 8601 UTC expiry of the code waiting to be entered; null: none. */
  codeExpiresAt: z.string().nullable(),
});
export type AccountContactRecord = z.infer<typeof accountContactRecord>;

export const accountEmailCodeBody = z.strictObject({ code: text().trim().regex(/^\d{6}$/) });
/** The outcome of sending a code: `error` says why the mail did not leave (the SMTP server's answer, never a secret). */
export const accountEmailSendResult = z.object({ sent: z.boolean(), error: z.string().nullable(), codeExpiresAt: z.string().nullable() });

const a = (zh: string, en: string) => ({ label: localized(zh, en) });

export const accountContactEndpoints = {
  get: endpoint({ method: 'GET', path: '/iot/v1/account/contact', access: 'authenticated', kind: 'token', response: accountContactRecord }),
  /** Saves the caller's contact details; a changed address is unverified (and a pending code dropped). */
  save: endpoint({
    method: 'POST', path: '/iot/v1/account/contact', access: 'authenticated', kind: 'token', action: a('修改联系方式', 'Change contact details'),
    body: accountContactBody, response: accountContactRecord,
  }),
  /** E-mails a new 6-digit code to the caller's address (400 on email without one; 400 when the data centre has no enabled e-mail channel). */
  sendCode: endpoint({
    method: 'POST', path: '/iot/v1/account/contact/sendCode', access: 'authenticated', kind: 'token', action: a('发送邮箱验证码', 'Send e-mail verification code'),
    response: accountEmailSendResult,
  }),
  /** Verifies the address with the code: 400 on code when wrong, expired or out of attempts. */
  verify: endpoint({
    method: 'POST', path: '/iot/v1/account/contact/verify', access: 'authenticated', kind: 'token', action: a('验证邮箱', 'Verify e-mail'),
    body: accountEmailCodeBody, response: accountContactRecord,
  }),
};
