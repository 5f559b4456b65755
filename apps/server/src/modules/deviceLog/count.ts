/**
 * Counting high-volume logs (heartbeats, uplinks, unlock records): an exact count(*) over a tenant's
 * millions of rows costs seconds (bench/RESULTS.md), so lists count exactly only up to LOG_COUNT_CAP
 * rows and otherwise report the cap with `totalCapped` (the console shows "10000+"), as large log
 * consoles do. Paging still works: pages beyond the cap are reached by narrowing the filter.
 */
import { count, type Subquery } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';

export const LOG_COUNT_CAP = 10_000;

/** A drizzle select of the matching rows that can be limited and used as a subquery. */
interface LimitableSelect {
  limit(limit: number): { as(alias: string): Subquery };
}

/**
 * `{ total, totalCapped }` for the rows `rows` selects (e.g. `tx.select({ one: sql`1` }).from(t).where(w)`).
 * Scans at most LOG_COUNT_CAP + 1 rows.
 */
export async function cappedCount(tx: Tx, rows: LimitableSelect): Promise<{ total: number; totalCapped?: true }> {
  const [row] = await tx.select({ n: count() }).from(rows.limit(LOG_COUNT_CAP + 1).as('capped'));
  const n = row?.n ?? 0;
  return n > LOG_COUNT_CAP ? { total: LOG_COUNT_CAP, totalCapped: true } : { total: n };
}
