/**
 * Counting a device log's matching rows (the factory's `total`): exactly, or up to the cap for the
 * high-volume logs (db/count.ts). A capped count without keyword or time range is a prepared statement
 * per filter shape (no planning over every day partition on each request); tenant-wide, a log that
 * reads recent-first (recent.ts) counts its newest days first and is done when they reach the cap,
 * instead of scanning from its oldest, coldest day; below the cap it adds the older days' count. Runs in the caller's tenant transaction.
 */
import type { LogFilter } from '@iot/contract';
import { count, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { cappedCount, cappedTotal, type CountResult, LOG_COUNT_CAP } from '../../db/count.js';
import { preparedOn } from '../../db/prepared.js';
import { locks } from '../../db/schema.js';
import { filterShape, type LogBind } from './filter.js';
import { beforeWindow, inWindow, recentStart } from './recent.js';

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
    /** The capped count of the rows from `window.start` on (`from`) or before it (`before`), or of all rows. */
    const take = async (window?: { start: Date; part: 'from' | 'before' }) => {
      const shape = JSON.stringify([spec.exportName, lockId !== undefined, window ? [window.part, window.start] : 'all', filterShape(filter)]);
      const statement = preparedOn(tx, `device_log_count:${shape}`, (name) => {
        const where = whereOf(filter, lockId, (field) => sql.placeholder(field));
        const part = window && (window.part === 'from' ? inWindow(spec.timeColumn, window.start) : beforeWindow(spec.timeColumn, window.start));
        return tx.select({ n: count() }).from(matching(part ? sql`${where ?? sql`true`} and ${part}` : where).limit(LOG_COUNT_CAP + 1).as('capped')).prepare(name);
      });
      const [row] = await statement.execute({ lockId });
      return row?.n ?? 0;
    };
    if (!recentFirst || lockId !== undefined) return cappedTotal(await take());
    // Tenant-wide: the newest days first; the older ones only while the total is below the cap.
    const start = recentStart();
    const recent = await take({ start, part: 'from' });
    return cappedTotal(recent > LOG_COUNT_CAP ? recent : recent + await take({ start, part: 'before' }));
  };
}
