/**
 * Counting a device log's matching rows (the factory's `total`): exactly, or up to the cap for the
 * high-volume logs (db/count.ts). A capped count without keyword or time range is a prepared statement
 * per filter shape (no planning over every day partition on each request). A log that reads
 * recent-first (recent.ts) counts its newest days first and is done when they reach the cap, instead of
 * scanning from its oldest, coldest day. Below the cap, tenant-wide it adds the week before them, then
 * the older days, each asking only the rows the cap still needs (PostgreSQL reads an open-ended range's
 * day partitions oldest first). For one lock it reports the newest days' count as "more than"
 * (`totalCapped`) when the lock has older rows: the console pages on by cursor, and a time range counts
 * exactly. At fleet scale a list counts what it reads, not every day it keeps. Runs in the caller's
 * tenant transaction.
 */
import type { LogFilter } from '@iot/contract';
import { count, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { cappedCount, cappedTotal, type CountResult, LOG_COUNT_CAP } from '../../db/count.js';
import { preparedOn } from '../../db/prepared.js';
import { locks } from '../../db/schema.js';
import { filterShape, type LogBind } from './filter.js';
import { beforeWindow, DAY_MS, inWindow, RECENT_DAYS, recentStart } from './recent.js';

/** What the counter needs of a device log's spec (factory.ts DeviceLogSpec). */
interface CountedLog {
  table: PgTable;
  lockColumn: PgColumn;
  timeColumn: PgColumn;
  count: 'capped' | 'exact';
  exportName: string;
}

/** The where-clause of a filter with the resolved lock id (undefined: none); `bind` may make the lock id a placeholder. */
type WhereOf<F> = (filter: F, lockId: number | undefined, bind?: LogBind) => SQL | undefined;

/** `(tx, filter, lockId) => { total, totalCapped? }` of the log `spec`; `recentFirst`: counts tenant-wide recent-first. */
export function logCounter<F extends LogFilter>(spec: CountedLog, whereOf: WhereOf<F>, recentFirst: boolean) {
  return async function counted(tx: Tx, filter: F, lockId: number | undefined): Promise<CountResult> {
    // The lock is joined only for the keyword: the lock id is resolved already.
    const matching = (where: SQL | undefined) => {
      const rows = tx.select({ one: sql<number>`1` }).from(spec.table);
      return (filter.keyword ? rows.innerJoin(locks, eq(locks.id, spec.lockColumn)) : rows).where(where);
    };
    if (spec.count === 'exact') {
      const [row] = await tx.select({ n: count() }).from(matching(whereOf(filter, lockId)).as('matching'));
      return { total: row?.n ?? 0 };
    }
    if (filter.keyword || filter.startTime || filter.endTime) return cappedCount(tx, matching(whereOf(filter, lockId)));
    /** How many rows (at most `limit`) lie in `range`: from `from` on, before `before`, or all of them. */
    const take = async (range: { from?: Date; before?: Date }, limit = LOG_COUNT_CAP + 1) => {
      const shape = JSON.stringify([spec.exportName, lockId !== undefined, range.from ?? '', range.before ?? '', filterShape(filter)]);
      const statement = preparedOn(tx, `device_log_count:${shape}`, (name) => {
        const where = whereOf(filter, lockId, (field) => sql.placeholder(field));
        const bounds = [range.from && inWindow(spec.timeColumn, range.from), range.before && beforeWindow(spec.timeColumn, range.before)].filter((bound) => bound !== undefined);
        const part = bounds.length ? sql.join(bounds, sql` and `) : undefined;
        return tx.select({ n: count() }).from(matching(part ? sql`${where ?? sql`true`} and ${part}` : where).limit(sql.placeholder('limit')).as('capped')).prepare(name);
      });
      const [row] = await statement.execute({ lockId, limit });
      return row?.n ?? 0;
    };
    if (!recentFirst) return cappedTotal(await take({}));
    // The newest days first, then as many days before them, then the rest, each only while the total is below the cap.
    const start = recentStart();
    const weekBefore = new Date(start.getTime() - RECENT_DAYS * DAY_MS);
    const recent = await take({ from: start });
    if (recent > LOG_COUNT_CAP) return cappedTotal(recent);
    if (lockId === undefined) {
      let total = recent + await take({ from: weekBefore, before: start }, LOG_COUNT_CAP + 1 - recent);
      if (total <= LOG_COUNT_CAP) total += await take({ before: weekBefore }, LOG_COUNT_CAP + 1 - total);
      return cappedTotal(total);
    }
    // One lock: its newest days, and "more than" when it has older rows, found by one probe of the day
    // before them (a lock reports every day) before any older day. Counting every day partition's
    // (lock, time) index was ~90 probes, cold disk reads at 100 M heartbeats that made a lock's first page
    // miss its 50 ms budget (bench/heartbeats-100m.ts: 247 buffers read, 155 ms; one day: 4 buffers).
    const older = await take({ from: new Date(start.getTime() - DAY_MS), before: start }, 1) || await take({ before: start }, 1);
    return older ? { total: recent, totalCapped: true } : { total: recent };
  };
}

/**
 * A capped total (a lower bound) made to agree with page `current` of `size` that showed `shown` rows:
 * never below the rows up to it, and exact on a last page (some rows, fewer than `size`). An exact total
 * is returned as it is.
 */
export function boundedTotal(total: CountResult, current: number, size: number, shown: number): CountResult {
  if (!total.totalCapped) return total;
  const upToPage = (current - 1) * size + shown;
  if (shown > 0 && shown < size) return { total: upToPage };
  return { total: Math.max(total.total, upToPage), totalCapped: true };
}
