/**
 * The verified API keys of this process, as principal-cache.ts keeps sessions: a key
 * checked once is answered from memory until an event says it changed or `lifetimeMs` (config
 * PRINCIPAL_CACHE_MS) passes: `apiKey.changed` (revoked, rotated), `account.changed` and an
 * account-wide `session.revoked` (its creator: password, roles, disabled), `role.changed` (its data
 * centre); a listener resync empties it. Last use is written at most once a minute per key, and then
 * the key's first use of the day goes to its creator's sign-in history (oauth history.ts recordApiKeyUse).
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { type ClientOf, recordApiKeyUse } from '../oauth/history.js';
import { type KeyPrincipal, lookupApiKey, touchApiKey } from './lookup.js';

/** A key's last use is written again after this, ms. */
const TOUCH_AFTER_MS = 60_000;

interface Entry {
  principal: KeyPrincipal;
  validUntil: number;
}

export interface ApiKeyCache {
  /** The principal of `key` (a well-formed key with its `prefix`) used by `client`; undefined when not valid. */
  verify(key: string, prefix: string, client: ClientOf): Promise<KeyPrincipal | undefined>;
  clear(): void;
  stats(): { hits: number; misses: number; entries: number };
  close(): void;
}

/** Creates the cache of `database`'s API keys. */
export function createApiKeyCache(database: Database, options: { lifetimeMs: number; log: { warn(fields: object, message?: string): void } }): ApiKeyCache {
  const entries = new Map<string, Entry>();
  const touched = new Map<number, number>();
  const counters = { hits: 0, misses: 0 };
  const forget = (drop: (principal: KeyPrincipal) => boolean) => {
    for (const [hash, entry] of entries) if (drop(entry.principal)) entries.delete(hash);
  };
  const clear = () => entries.clear();
  const stops = [
    database.events.on('apiKey.changed', ({ apiKeyId }) => forget((p) => p.apiKeyId === apiKeyId)),
    database.events.on('account.changed', ({ accountId }) => forget((p) => p.accountId === accountId)),
    database.events.on('session.revoked', ({ accountId, family }) => { if (!family) forget((p) => p.accountId === accountId); }),
    database.events.on('role.changed', ({ tenantId }) => forget((p) => p.tenantId === tenantId)),
    database.events.onResync(clear),
  ];
  const touch = (principal: KeyPrincipal, now: number, client: ClientOf) => {
    if (now - (touched.get(principal.apiKeyId) ?? 0) < TOUCH_AFTER_MS) return;
    touched.set(principal.apiKeyId, now);
    const { apiKeyId, name: apiKeyName, accountId, tenantId } = principal;
    touchApiKey(database.system, apiKeyId)
      .then(() => recordApiKeyUse(database.system, { apiKeyId, apiKeyName, accountId, tenantId, ...client }))
      .catch((error: unknown) => options.log.warn({ err: error }, 'API key last use not written'));
  };
  return {
    async verify(key, prefix, client) {
      const hash = createHash('sha256').update(key).digest('hex');
      const now = Date.now();
      const cached = entries.get(hash);
      if (cached && now < cached.validUntil) {
        counters.hits++;
        touch(cached.principal, now, client);
        return cached.principal;
      }
      entries.delete(hash);
      counters.misses++;
      const principal = await lookupApiKey(database.system, prefix, hash);
      if (!principal) return undefined;
      const at = Date.now();
      if (options.lifetimeMs > 0) {
        if (entries.size >= 10_000) entries.delete(entries.keys().next().value as string);
        entries.set(hash, { principal, validUntil: Math.min(at + options.lifetimeMs, at + principal.validForS * 1000) });
      }
      touch(principal, at, client);
      return principal;
    },
    clear,
    stats: () => ({ ...counters, entries: entries.size }),
    close() {
      for (const stop of stops) stop();
    },
  };
}
