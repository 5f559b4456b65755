/**
 * Counting lists at fleet scale (high-volume logs: heartbeats, uplinks, unlock records; and issue #23:
 * locks, commands, lock users, credentials and their operation logs): an exact count(*) over a
 * tenant's 100,000s of rows costs a scan per request (bench/RESULTS.md), so lists count exactly only
 * up to LOG_COUNT_CAP rows and otherwise report the cap with `totalCapped` (the console shows
 * "10000+"), as large consoles do. Paging still works: pages beyond the cap are reached by narrowing
 * the filter.
 */
import { count, type Subquery } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

export const LOG_COUNT_CAP = 10_000;

/** A drizzle select of the matching rows that can be limited and used as a subquery. */
interface LimitableSelect {
  limit(limit: number): { as(alias: string): Subquery };
}

/**
 * `{ total, totalCapped }` for the rows `rows` selects (e.g. `tx.select({ one: sql`1` }).from(t).where(w)`).
 * Scans at most LOG_COUNT_CAP + 1 rows.
 */
export async function cappedCount(tx: Executor, rows: LimitableSelect): Promise<{ total: number; totalCapped?: true }> {
  const [row] = await tx.select({ n: count() }).from(rows.limit(LOG_COUNT_CAP + 1).as('capped'));
  return cappedTotal(row?.n ?? 0);
}

/** `{ total, totalCapped }` of a count taken up to LOG_COUNT_CAP + 1 rows. */
export function cappedTotal(n: number): { total: number; totalCapped?: true } {
  return n > LOG_COUNT_CAP ? { total: LOG_COUNT_CAP, totalCapped: true } : { total: n };
}
