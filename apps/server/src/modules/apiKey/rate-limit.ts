/**
 * Rate limits of API keys: per key and per account (all keys of one creator together),
 * each a fixed window of 60 s counted in @fastify/rate-limit's in-memory store (per process). Every
 * answer to a key carries the IETF headers (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy`
 * with both policies, `RateLimit` with the one closest to its limit); over a limit the answer is 429
 * TOO_MANY_ATTEMPTS with `Retry-After` (s). Limits: config API_KEY_RATE_PER_MINUTE and
 * API_KEY_ACCOUNT_RATE_PER_MINUTE, with per-data-centre overrides (API_KEY_RATE_BY_TENANT).
 */
import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../http/api-error.js';

const WINDOW_MS = 60_000;

/** @fastify/rate-limit's in-memory store (store/LocalStore.js: CommonJS, untyped there): a fixed window per key. */
interface LocalStore {
  incr(key: string, callback: (error: Error | null, result: { current: number; ttl: number }) => void, timeWindowMs: number, max: number): void;
}
type LocalStoreClass = new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => LocalStore;
const LocalStore = createRequire(import.meta.url)('@fastify/rate-limit/store/LocalStore.js') as LocalStoreClass;

export interface KeyRateLimits {
  /** Requests per minute of one key. */
  perKey: number;
  /** Requests per minute of every key of one account together. */
  perAccount: number;
}

interface Counted {
  policy: 'key' | 'account';
  limit: number;
  remaining: number;
  resetS: number;
}

/** A limiter for keys; `check` counts one request and throws 429 when a limit is exceeded. */
export function createKeyRateLimiter() {
  const store = new LocalStore(false, false, 10_000);
  const count = (policy: Counted['policy'], key: string, limit: number) => new Promise<Counted & { exceeded: boolean }>((resolve, reject) => {
    store.incr(key, (error, result) => {
      if (error) return reject(error);
      resolve({ policy, limit, remaining: Math.max(0, limit - result.current), resetS: Math.max(1, Math.ceil(result.ttl / 1000)), exceeded: result.current > limit });
    }, WINDOW_MS, limit);
  });
  return {
    async check(reply: FastifyReply, apiKeyId: number, accountId: number, limits: KeyRateLimits): Promise<void> {
      const counts = [await count('key', `key:${apiKeyId}`, limits.perKey), await count('account', `account:${accountId}`, limits.perAccount)];
      const w = WINDOW_MS / 1000;
      reply.header('ratelimit-policy', counts.map((c) => `"${c.policy}";q=${c.limit};w=${w}`).join(', '));
      const tightest = counts.reduce((a, b) => (b.exceeded && !a.exceeded) || b.remaining < a.remaining ? b : a);
      reply.header('ratelimit', `"${tightest.policy}";r=${tightest.remaining};t=${tightest.resetS}`);
      const exceeded = counts.filter((c) => c.exceeded);
      if (exceeded.length === 0) return;
      reply.header('retry-after', String(Math.max(...exceeded.map((c) => c.resetS))));
      throw new ApiError('TOO_MANY_ATTEMPTS', undefined, {
        'zh-CN': `API 密钥请求过于频繁（${exceeded.map((c) => (c.policy === 'key' ? `每个密钥每分钟 ${c.limit} 次` : `每个账号每分钟 ${c.limit} 次`)).join('，')}），请稍后再试`,
        'en-US': `Too many API key requests (${exceeded.map((c) => `${c.limit} a minute per ${c.policy}`).join(', ')}); try again later`,
      });
    },
  };
}
