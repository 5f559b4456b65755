/**
 * Keyset paging of a device log (contract api/cursor.ts): the page after a cursor row in the log's
 * default order, newest first, read by an index from that row on instead of skipping OFFSET rows.
 * Two orders are keyset-able: `time` (time column, then id, both descending: `(time, id) < (t, id)`,
 * which PostgreSQL answers from a (lock or tenant, time) index by starting at `time <= t`) and `id` (id
 * descending, the insert order: `id < id`). The page's rows carry their time at full precision under
 * KEYSET_AT (microseconds: a millisecond ISO time would skip or repeat rows of one millisecond); the
 * factory reads the last row's and removes the field before the rows become records.
 */
import { encodeCursor, type LogCursor } from '@iot/contract';
import { lt, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** A keyset-able default order of a log (see the module comment). */
export type KeysetOrder = 'time' | 'id';

/** The hidden select key of a row's full-precision time (last in the select, so deleting it is cheap). */
export const KEYSET_AT = '__keysetAt';

/** SQL text of a timestamptz as ISO 8601 UTC with microseconds (the cursor's `t`). */
export function microsIso(column: PgColumn): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The cursor's values as they go into the SQL: themselves, or a prepared statement's placeholders. */
export interface CursorBind {
  t: string | Placeholder;
  id: number | Placeholder;
}

/** Placeholders `cursorTime` and `cursorId` (execute with cursorValues). */
export const cursorPlaceholders: CursorBind = { t: sql.placeholder('cursorTime'), id: sql.placeholder('cursorId') };

/** A prepared statement's values of cursorPlaceholders. */
export function cursorValues(cursor: LogCursor): { cursorTime: string; cursorId: number } {
  return { cursorTime: cursor.t, cursorId: cursor.id };
}

/** The condition "after the cursor row" in `order` on `time` and `id`. */
export function afterCursor(order: KeysetOrder, time: PgColumn, id: PgColumn, at: CursorBind): SQL {
  if (order === 'id') return lt(id, at.id) as SQL;
  return sql`(${time}, ${id}) < (${at.t}::timestamptz, ${at.id}::bigint)`;
}

/**
 * The next page's cursor of `rows` (a page of `size` asked), undefined when the page is not full; then
 * removes KEYSET_AT from every row. Rows carry `id` (the log's id column) and KEYSET_AT.
 */
export function takeNextCursor(rows: Record<string, unknown>[], size: number): string | undefined {
  const last = rows.at(-1);
  const next = last && rows.length >= size ? encodeCursor({ t: String(last[KEYSET_AT]), id: Number(last.id) }) : undefined;
  for (const row of rows) delete row[KEYSET_AT];
  return next;
}
