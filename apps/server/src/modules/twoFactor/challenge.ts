/**
 * The challenge between the two steps of a two-factor sign-in: `<payload>.<tag>`, payload
 * base64url JSON `{ accountId, expiresAt (ms) }` plus a random nonce, tag HMAC-SHA-256 under a key
 * derived (HKDF-SHA-256, info "two-factor-challenge") from the platform's master key, so every
 * instance sharing the key accepts it and nothing is stored. It proves the password step only: it
 * lasts TWO_FACTOR_CHALLENGE_S (5 min), and its second-factor attempts count in sign-in throttling.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { TWO_FACTOR_CHALLENGE_S } from '@iot/contract';
import { masterKeyFor } from '../../crypto/secret-box.js';

type KeySource = Parameters<typeof masterKeyFor>[0];

const keyOf = (config: KeySource) => Buffer.from(hkdfSync('sha256', masterKeyFor(config), Buffer.alloc(0), 'two-factor-challenge', 32));
const tagOf = (config: KeySource, payload: string) => createHmac('sha256', keyOf(config)).update(payload).digest();

/** A challenge for `accountId`, valid TWO_FACTOR_CHALLENGE_S from `nowMs`. */
export function issueChallenge(config: KeySource, accountId: number, nowMs = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ accountId, expiresAt: nowMs + TWO_FACTOR_CHALLENGE_S * 1000, nonce: randomBytes(9).toString('base64url') })).toString('base64url');
  return `${payload}.${tagOf(config, payload).toString('base64url')}`;
}

/** The account of a genuine, unexpired challenge; undefined otherwise. */
export function readChallenge(config: KeySource, challenge: string, nowMs = Date.now()): number | undefined {
  const [payload, tag] = challenge.split('.');
  if (!payload || !tag) return undefined;
  const given = Buffer.from(tag, 'base64url');
  const expected = tagOf(config, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const { accountId, expiresAt } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { accountId: unknown; expiresAt: unknown };
    return typeof accountId === 'number' && typeof expiresAt === 'number' && expiresAt > nowMs ? accountId : undefined;
  } catch {
    return undefined;
  }
}
