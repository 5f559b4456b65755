/**
 * TOTP for the two-factor tests: codes computed from the enrolment's base32 secret with
 * the library the server uses (@oslojs/otp; RFC 6238, 30-s steps, 6 digits), and an enrolment.
 */
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import type { FastifyInstance } from 'fastify';
import { call, dataOf } from './helper.js';

/** The current 30-s time step. */
export const stepNow = () => Math.floor(Date.now() / 30_000);
/** The 6-digit code of `secret` (base32) at time step `step`. */
export const codeAt = (secret: string, step: number) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6);

/** Enrols the account of `token` with the code of the current step: the begin answer (uri, qrCode, secret) and the recovery codes. */
export async function enrolWith(app: FastifyInstance, token: string) {
  const begun = dataOf(await call(app, token, { method: 'POST', url: '/iot/v1/twoFactor/begin' }));
  const confirmed = dataOf(await call(app, token, { method: 'POST', url: '/iot/v1/twoFactor/confirm', payload: { code: codeAt(begun.secret, stepNow()) } }));
  return { ...begun, secret: begun.secret as string, recoveryCodes: confirmed.recoveryCodes as string[] };
}
