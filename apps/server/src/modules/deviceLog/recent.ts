/**
 * Recent-first reads of a day-partitioned device log (its time column is the partition key,
 * docs/partitions.md). A page or a tenant-wide count without a time range is read first from the
 * last RECENT_DAYS UTC days only, so PostgreSQL opens the newest day partitions (8 of 97 at 100 M
 * heartbeats) instead of descending every partition's index; only when that window does not hold the
 * answer is the whole log read, as before. At 100 M heartbeats a lock's page opened 90 partitions
 * (380 buffers, 10-33 ms warm) and a data centre's count began at the oldest, coldest day.
 *
 * The window's start is written into the SQL as text (a UTC midnight), so partitions are pruned when
 * the statement is planned and its prepared plan stays generic (a `$since` parameter would be pruned
 * only at run time, and PostgreSQL, costing every partition, would re-plan every request); the
 * statement's key carries the day, so a new one is prepared once a day.
 */
import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { PARTITIONED_TABLES } from '../../db/partitions.js';
import { KEYSET_AT } from './keyset.js';

/** Whole UTC days before today's midnight that the window holds (with today: 7-8 days). */
export const RECENT_DAYS = 7;

/**
 * A window's page in insert (id) order is taken only when its last row is at least this much newer than
 * the window's start, ms. `received_at` is the inserting transaction's start and the id is drawn inside
 * it, so a row left out of the window (older than the start) can carry a larger id than a row in it only
 * if its transaction lasted longer than this. In time order the window's page is exact anyway.
 */
export const RECENT_SLACK_MS = 3_600_000;

/** One UTC day, ms. */
export const DAY_MS = 86_400_000;

/** Whether `table` is day-partitioned by `timeColumn` (db/partitions.ts PARTITIONED_TABLES): it reads recent-first. */
export function isRecentFirst(table: PgTable, timeColumn: PgColumn): boolean {
  return PARTITIONED_TABLES.some((partitioned) => (partitioned.of ?? partitioned.table) === getTableName(table) && partitioned.keyColumn === timeColumn.name);
}

/** The window's start: the UTC midnight RECENT_DAYS days before the one of `now` (epoch ms). */
export function recentStart(now = Date.now()): Date {
  return new Date((Math.floor(now / DAY_MS) - RECENT_DAYS) * DAY_MS);
}

/** The window's start as SQL text: an ISO 8601 UTC literal, so partitions are pruned when the statement is planned. */
const startLiteral = (start: Date): SQL => sql.raw(`'${start.toISOString()}'::timestamptz`);

/** `column >= start`: the rows in the window. */
export function inWindow(column: PgColumn, start: Date): SQL {
  return sql`${column} >= ${startLiteral(start)}`;
}

/** `column < start`: the rows before the window. */
export function beforeWindow(column: PgColumn, start: Date): SQL {
  return sql`${column} < ${startLiteral(start)}`;
}

/**
 * Whether `rows`, a page of `size` read from the window starting at `start`, is the whole log's page:
 * it is full and its last row's time (KEYSET_AT, ISO 8601 with microseconds) is at least
 * RECENT_SLACK_MS after the start. Otherwise older rows may belong in it and the caller reads the log.
 */
export function windowHoldsPage(rows: readonly Record<string, unknown>[], size: number, start: Date): boolean {
  const last = rows.at(-1);
  return rows.length >= size && last !== undefined && cursorInWindow(String(last[KEYSET_AT]), start);
}

/** Whether time `t` (ISO 8601, e.g. a cursor's) is at least RECENT_SLACK_MS after the window's start: a page after it can come from the window. */
export function cursorInWindow(t: string, start: Date): boolean {
  return Date.parse(t) - start.getTime() >= RECENT_SLACK_MS;
}
