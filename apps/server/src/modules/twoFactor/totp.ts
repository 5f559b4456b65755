/**
 * TOTP and recovery codes, over @oslojs/otp: RFC 6238 time steps of TOTP_PERIOD_S (30 s)
 * from the Unix epoch, TOTP_DIGITS (6) digits, HMAC-SHA-1 (RFC 4226), 160-bit secrets (RFC 4226 §4
 * recommends at least 160). A code is checked against the previous, current and next step (clock
 * drift of ±30 s, RFC 6238 §5.2) and only at a step later than the last one accepted, so a code works
 * once. Recovery codes: RECOVERY_CODE_COUNT codes `xxxxx-xxxxx` of 50 random bits (base32 alphabet,
 * lower case), stored as SHA-256 hex of the lower-cased code.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeBase32IgnorePadding, encodeBase32NoPadding } from '@oslojs/encoding';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_S } from '@iot/contract';
import QRCode from 'qrcode';

/** The name authenticator apps show above the account. */
export const TOTP_ISSUER = 'IoT Platform';
const SECRET_BYTES = 20;

/** A new random secret, base32 without padding (what the otpauth URI carries). */
export function newTotpSecret(): string {
  return encodeBase32NoPadding(randomBytes(SECRET_BYTES));
}

/** The RFC 6238 time step of `nowMs`. */
export function timeStepAt(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_S);
}

/** The `otpauth://totp/…` URI of a secret for `username`, and its QR code as a PNG data URL. */
export async function enrolmentOf(secret: string, username: string): Promise<{ uri: string; qrCode: string }> {
  const uri = createTOTPKeyURI(TOTP_ISSUER, username, decodeBase32IgnorePadding(secret), TOTP_PERIOD_S, TOTP_DIGITS);
  return { uri, qrCode: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
}

/**
 * The time step at which `code` is valid for `secret` (previous, current or next step at `nowMs`),
 * later than `lastStep`; undefined when the code is wrong or only valid at an already used step.
 */
export function acceptedStep(secret: string, code: string, lastStep: number | null, nowMs = Date.now()): number | undefined {
  const key = decodeBase32IgnorePadding(secret);
  const now = timeStepAt(nowMs);
  for (const step of [now - 1, now, now + 1]) {
    if (lastStep !== null && step <= lastStep) continue;
    const expected = Buffer.from(generateHOTP(key, BigInt(step), TOTP_DIGITS));
    const given = Buffer.from(code.padEnd(TOTP_DIGITS, ' ').slice(0, TOTP_DIGITS));
    if (timingSafeEqual(expected, given) && code.length === TOTP_DIGITS) return step;
  }
  return undefined;
}

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** SHA-256 hex of a recovery code (case-insensitive). */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.trim().toLowerCase()).digest('hex');
}

/** RECOVERY_CODE_COUNT new recovery codes `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** True for the shape of a recovery code (not of a TOTP code). */
export const isRecoveryCode = (code: string) => code.includes('-');
