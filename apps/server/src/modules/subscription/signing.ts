/**
 * The push signature (docs/open-platform.md "Verifying a push"): for each secret that signs now,
 * `v1=` + hex HMAC-SHA256(secret, timestamp + "\n" + nonce + "\n" + body), newest first,
 * comma-separated in X-Iot-Signature. Timestamp: Unix seconds; nonce: 32 hex digits per attempt.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PUSH_HEADERS } from '@iot/contract';

/** The hex HMAC-SHA256 of one push. */
export function signatureOf(secret: string, timestamp: string, nonce: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${nonce}\n${body}`).digest('hex');
}

/** A new secret: `whsec_` + 32 random bytes, base64url. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export interface PushEnvelope {
  customerCode: string;
  eventId: string;
  eventType: string;
}

/** The request headers of one attempt, signed with every secret in `secrets` (newest first). */
export function signedHeaders(envelope: PushEnvelope, body: string, secrets: readonly string[], now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  const nonce = randomBytes(16).toString('hex');
  return {
    [PUSH_HEADERS.customerCode]: envelope.customerCode,
    [PUSH_HEADERS.eventId]: envelope.eventId,
    [PUSH_HEADERS.eventType]: envelope.eventType,
    [PUSH_HEADERS.timestamp]: timestamp,
    [PUSH_HEADERS.nonce]: nonce,
    [PUSH_HEADERS.signature]: secrets.map((secret) => `v1=${signatureOf(secret, timestamp, nonce, body)}`).join(','),
  };
}

/**
 * The receiver's check (the demo receiver and the tests use it; docs/open-platform.md shows the same
 * in Node, Python and Java): true when one of the signatures matches `secret` and the timestamp is
 * within `toleranceS` of now.
 */
export function verifyPush(headers: Record<string, string | string[] | undefined>, body: string, secret: string, toleranceS = 300, now = Date.now()): boolean {
  const header = (name: string) => { const value = headers[name]; return Array.isArray(value) ? value[0] : value; };
  const timestamp = header(PUSH_HEADERS.timestamp);
  const nonce = header(PUSH_HEADERS.nonce);
  const signatures = header(PUSH_HEADERS.signature);
  if (!timestamp || !nonce || !signatures) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceS) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, nonce, body), 'hex');
  return signatures.split(',').some((part) => {
    const given = Buffer.from(part.trim().replace(/^v1=/, ''), 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
