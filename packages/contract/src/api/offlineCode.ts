/**
 * Offline codes: keypad codes the platform computes from a per-lock key and the lock checks
 * without any contact (algorithm: offline-code/algorithm.ts, node only; docs/offline-codes.md). This
 * file is the browser-safe part: kinds, limits, the window a code carries and the API.
 *
 * Kinds: `oneTime` (valid once within ONE_TIME_HOURS from its start hour), `hourly` (a start hour and
 * a duration of 1..MAX_HOURLY_HOURS hours), `daily` (every day from one date to another, 1..MAX_DAILY_DAYS
 * days, between two whole hours of the data centre's local day). Authority: LOCK_OFFLINE_CODE issues;
 * the list also with VOUCHER_PASSWORD_MANAGE (密码管理, where the dialog lives).
 */
import { z } from 'zod';
import { lockId } from './command.js';
import { endpoint } from './endpoint.js';
import { int4Id, text } from './input.js';
import { calendarDay, isoTime } from './time.js';
import { localized as label } from '../i18n.js';

export const OFFLINE_CODE_KINDS = ['oneTime', 'hourly', 'daily'] as const;
export type OfflineCodeKind = (typeof OFFLINE_CODE_KINDS)[number];
/** A one-time code is valid this many hours from its start hour (and only once). */
export const ONE_TIME_HOURS = 6;
/** Longest hourly window, hours (28 days). */
export const MAX_HOURLY_HOURS = 672;
/** Longest daily recurring window, days. */
export const MAX_DAILY_DAYS = 28;

/** Mainland China mobile number (11 digits, 1[3-9]x). */
const mobile = z.string().regex(/^1[3-9]\d{9}$/, { error: '请输入 11 位手机号 / Enter an 11-digit mobile number' });
const hour = z.number().int().min(0).max(24);
/** An instant (ISO 8601 with an offset), truncated by the server to the whole hour it falls in. */
const instant = isoTime;
/** A date of the data centre's calendar. */
const date = calendarDay;

/** What the operator asks for: the window in the data centre's terms. */
export const offlineCodeWindowInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('oneTime'), start: instant }),
  z.strictObject({ kind: z.literal('hourly'), start: instant, hours: z.number().int().min(1).max(MAX_HOURLY_HOURS) }),
  z.strictObject({ kind: z.literal('daily'), firstDate: date, lastDate: date, fromHour: hour.max(23), toHour: hour.min(1) }),
]);

export const offlineCodeIssueBody = z.strictObject({
  lockId,
  recipientName: text().trim().min(1).max(50),
  recipientMobile: mobile,
  window: offlineCodeWindowInput,
});
export type OfflineCodeIssueBody = z.infer<typeof offlineCodeIssueBody>;

export const offlineCodeRecord = z.object({
  id: z.number().int(), lockId: z.number().int(), lockName: z.string(), kind: z.enum(OFFLINE_CODE_KINDS),
  recipientName: z.string(), recipientMobile: z.string(), issuedBy: z.string(), issuedAt: z.string(),
  /** First and last instant of the window (ISO 8601 UTC); a daily code opens only between fromHour and toHour of each day. */
  validFrom: z.string(), validTo: z.string(),
  /** Daily codes: local hours (data centre's zone), end exclusive; null otherwise. */
  fromHour: z.number().int().nullable(), toHour: z.number().int().nullable(),
});
export type OfflineCodeRecord = z.infer<typeof offlineCodeRecord>;

/** The issue answer: the record and the code itself, shown this once (the platform keeps only an HMAC of it). */
export const offlineCodeIssued = offlineCodeRecord.extend({ code: z.string() });
export type OfflineCodeIssued = z.infer<typeof offlineCodeIssued>;

const A = 'LOCK_OFFLINE_CODE' as const;

export const offlineCodeEndpoints = {
  /** Computes and records a code; 400 on window fields out of range, 404 for a lock outside the tenant, 409 when the same window was issued already. */
  issue: endpoint({ method: 'POST', path: '/iot/v1/offlineCode', access: A, kind: 'token', body: offlineCodeIssueBody, response: offlineCodeIssued,
    action: { label: label('签发离线密码', 'Issue an offline code'), target: ['lockId'] } }),
  /** Issued codes, newest first, optionally of one lock; never the codes themselves. */
  list: endpoint({ method: 'GET', path: '/iot/v1/offlineCode/list', access: ['VOUCHER_PASSWORD_MANAGE', A], kind: 'token',
    query: z.object({ lockId: int4Id.optional() }), response: z.array(offlineCodeRecord) }),
};
