/**
 * The verified principal, cached per process so that a request needs no database round
 * trip (ARCHITECTURE.md "Events"). A token checked once in a data centre (tokens.ts lookupToken: the
 * session, the account, its membership and authorities there) is answered from memory until:
 * - an event says it changed (docs/events.md): `session.revoked` (sign-out, password change, roles
 *   bound, account disabled), `account.changed` (enabled, password, memberships, bindings, removal),
 *   `role.changed` (every entry of that data centre): at once on the instance that made the change
 *   (delivered at commit), through NOTIFY on the others; a listener reconnect empties the cache;
 * - its lifetime ends (`lifetimeMs`, config PRINCIPAL_CACHE_MS, default 5 s: the safety net for a
 *   lost notification), or the token expires, is idle too long, or its rotation grace ends.
 * Idle-expiry touches (last_used_at) are not written per request: a session used again more than
 * TOUCH_AFTER_MS after its last written touch joins a batch written every `touchFlushMs` in one
 * statement (and at close). Rotation works as before (tokens.ts rotate, once per sign-in).
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { tenantsOf } from './principal.js';
import { lookupToken, ROTATION_GRACE_S, rotate, type SessionInTenant, type TokenPolicy, touchSessions } from './tokens.js';

/** A session's touch is written again once its last written one is older than this, ms. */
const TOUCH_AFTER_MS = 15_000;

interface Entry {
  session: SessionInTenant;
  tenantId: number;
  expiresAt: Date;
  /** Local ms: no longer used after this (lifetime, absolute expiry, rotation grace). */
  validUntil: number;
  /** Local ms of the last use (this process) or of the database's last_used_at. */
  lastUsedAt: number;
  /** Local ms of the last touch written (or known written). */
  touchedAt: number;
  createdAt: number;
  rotatedAt: number | null;
}

export interface PrincipalCacheOptions {
  /** Longest time an entry is trusted without the database, ms (default 5000; 0: no cache). */
  lifetimeMs?: number;
  /** Touches are written this often, ms (default 5000). */
  touchFlushMs?: number;
  /** Most entries kept (default 10,000; the oldest go first). */
  maxEntries?: number;
  log: { warn(fields: object, message?: string): void };
}

export interface PrincipalCache {
  /** The session of `token` in `tenantId` (rotatedToken set when it was just replaced); undefined when not valid. */
  verify(token: string, tenantId: number): Promise<SessionInTenant | undefined>;
  /** The data centres account `accountId` (of `type`) may use (userInfo), from memory under the same rules. */
  tenants(accountId: number, type: number): Promise<{ id: number; name: string }[]>;
  /** Forgets every entry (a test that changes sessions behind the modules' back; a listener resync). */
  clear(): void;
  stats(): { hits: number; misses: number; entries: number; touchesWritten: number };
  /** Stops following events and writes the touches still due. */
  close(): Promise<void>;
}

/** Creates the cache of `database`'s principals under `policy`. */
export function createPrincipalCache(database: Database, policy: TokenPolicy, options: PrincipalCacheOptions): PrincipalCache {
  const lifetimeMs = options.lifetimeMs ?? 5000;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, Entry>();
  const tenantLists = new Map<number, { tenants: Promise<{ id: number; name: string }[]>; validUntil: number }>();
  const touches = new Set<number>();
  const counters = { hits: 0, misses: 0, touchesWritten: 0 };
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const forget = (drop: (entry: Entry) => boolean) => {
    for (const [key, entry] of entries) if (drop(entry)) entries.delete(key);
  };
  const clear = () => {
    entries.clear();
    tenantLists.clear();
  };
  const stops = [
    database.events.on('session.revoked', ({ accountId, family }) => forget((e) => (family ? e.session.family === family : e.session.accountId === accountId))),
    database.events.on('account.changed', ({ accountId }) => {
      forget((e) => e.session.accountId === accountId);
      tenantLists.delete(accountId);
    }),
    database.events.on('role.changed', ({ tenantId }) => forget((e) => e.tenantId === tenantId)),
    database.events.onResync(clear),
  ];

  function flush(): Promise<void> {
    flushTimer = undefined;
    const ids = [...touches];
    touches.clear();
    flushing = flushing.then(() => touchSessions(database.system, ids)).then(
      () => { counters.touchesWritten += ids.length; },
      (error: unknown) => options.log.warn({ err: error, sessions: ids.length }, 'session touches not written; written at the next use'),
    );
    return flushing;
  }

  async function use(entry: Entry, now: number): Promise<SessionInTenant> {
    entry.lastUsedAt = now;
    if (entry.rotatedAt === null && now - entry.createdAt > policy.rotateS * 1000) {
      entry.rotatedAt = now; // one rotation per sign-in, also for requests arriving meanwhile
      entry.validUntil = Math.min(entry.validUntil, now + ROTATION_GRACE_S * 1000);
      entry.touchedAt = now; // rotate() touches too
      const { sessionId, accountId, family } = entry.session;
      const rotatedToken = await rotate(database.system, sessionId, accountId, family, entry.expiresAt);
      return rotatedToken ? { ...entry.session, rotatedToken } : entry.session;
    }
    if (now - entry.touchedAt > TOUCH_AFTER_MS) {
      entry.touchedAt = now;
      touches.add(entry.session.sessionId);
      if (!flushTimer) {
        flushTimer = setTimeout(flush, options.touchFlushMs ?? 5000);
        flushTimer.unref();
      }
    }
    return entry.session;
  }

  return {
    async verify(token, tenantId) {
      const key = `${createHash('sha256').update(token).digest('base64')}:${tenantId}`;
      const now = Date.now();
      const cached = entries.get(key);
      if (cached && now < cached.validUntil && now - cached.lastUsedAt < policy.idleS * 1000) {
        counters.hits++;
        return use(cached, now);
      }
      entries.delete(key);
      counters.misses++;
      const row = await lookupToken(database.system, token, policy, tenantId);
      if (!row) return undefined;
      const { expiresAt, createdAgeS, lastUsedAgeS, expiresInS, rotatedAgeS, ...session } = row;
      const at = Date.now();
      const rotatedAt = rotatedAgeS === null ? null : at - rotatedAgeS * 1000;
      const entry: Entry = {
        session, tenantId, expiresAt, createdAt: at - createdAgeS * 1000, rotatedAt, lastUsedAt: at - lastUsedAgeS * 1000, touchedAt: at - lastUsedAgeS * 1000,
        validUntil: Math.min(at + lifetimeMs, at + expiresInS * 1000, rotatedAt === null ? Number.POSITIVE_INFINITY : rotatedAt + ROTATION_GRACE_S * 1000),
      };
      if (lifetimeMs > 0) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, entry);
      }
      return use(entry, at);
    },
    tenants(accountId, type) {
      const now = Date.now();
      const cached = tenantLists.get(accountId);
      if (cached && now < cached.validUntil) return cached.tenants;
      const tenants = tenantsOf(database.system, accountId, type);
      if (lifetimeMs > 0) tenantLists.set(accountId, { tenants, validUntil: now + lifetimeMs });
      tenants.catch(() => tenantLists.delete(accountId));
      return tenants;
    },
    clear,
    stats: () => ({ ...counters, entries: entries.size }),
    async close() {
      for (const stop of stops) stop();
      clearTimeout(flushTimer);
      await flush();
    },
  };
}
