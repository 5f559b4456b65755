/**
 * Counting lists at fleet scale (high-volume logs: heartbeats, uplinks, unlock records; and
 * locks, commands, lock users, credentials and their operation logs): an exact count(*) over a
 * tenant's 100,000s of rows costs a scan per request (bench/RESULTS.md), so lists count exactly only
 * up to LOG_COUNT_CAP rows and otherwise report the cap with `totalCapped` (the console shows
 * "10000+"), as large consoles do. Paging still works: pages beyond the cap are reached by narrowing
 * the filter.
 *
 * A large count of an append-only log is also remembered for a few seconds (CountMemory): the first
 * page of 心跳日志 is reloaded by every open console on every new heartbeat, and counting a data
 * centre's 8,000 rows cost more PostgreSQL CPU (1-1.6 ms) than reading the page (bench/api.ts).
 */
import { count, type Subquery } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Executor } from './client.js';

export const LOG_COUNT_CAP = 10_000;

/** Counts from this many rows up are remembered (below it a change of a few rows is visible; the count is cheap). */
export const COUNT_REMEMBER_FROM = 5_000;
/** How long a remembered count is answered, ms: its total may lag new rows by at most this. */
export const COUNT_REMEMBER_MS = 10_000;

export interface CountResult {
  total: number;
  totalCapped?: true;
}

/** A drizzle select of the matching rows that can be limited and used as a subquery. */
interface LimitableSelect {
  limit(limit: number): { as(alias: string): Subquery };
}

/**
 * `{ total, totalCapped }` for the rows `rows` selects (e.g. `tx.select({ one: sql`1` }).from(t).where(w)`).
 * Scans at most LOG_COUNT_CAP + 1 rows.
 */
export async function cappedCount(tx: Executor, rows: LimitableSelect): Promise<CountResult> {
  const [row] = await tx.select({ n: count() }).from(rows.limit(LOG_COUNT_CAP + 1).as('capped'));
  return cappedTotal(row?.n ?? 0);
}

/** `{ total, totalCapped }` of a count taken up to LOG_COUNT_CAP + 1 rows. */
export function cappedTotal(n: number): CountResult {
  return n > LOG_COUNT_CAP ? { total: LOG_COUNT_CAP, totalCapped: true } : { total: n };
}

/**
 * Large counts of one app's logs, remembered per key (the caller's data centre, log and filter, never
 * the page) for COUNT_REMEMBER_MS. One per app, not per process: two apps in one process (tests) may
 * hold different databases.
 */
export class CountMemory {
  private readonly counts: LRUCache<string, CountResult>;

  /** `now`: the clock in ms (tests pass their own; default performance.now). */
  constructor(now: () => number = () => performance.now()) {
    this.counts = new LRUCache<string, CountResult>({ max: 10_000, ttl: COUNT_REMEMBER_MS, ttlResolution: 0, perf: { now } });
  }

  /** The remembered count of `key`, or `take()`'s (remembered when it is COUNT_REMEMBER_FROM or more). */
  async count(key: string, take: () => Promise<CountResult>): Promise<CountResult> {
    const known = this.counts.get(key);
    if (known) return known;
    const taken = await take();
    if (taken.total >= COUNT_REMEMBER_FROM) this.counts.set(key, taken);
    return taken;
  }
}
