/**
 * SQL helpers every module uses (one way of each): LIKE escaping for "contains" searches
 * and timestamps as ISO 8601 UTC. Lock columns and the lock keyword filter are the lock module's
 * (modules/lockDevice/sql.ts).
 */
import type { SortRequest } from '@iot/contract';
import { asc, desc, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * An ILIKE pattern matching values that contain `text` literally: `%`, `_` and `\` are escaped
 * (PostgreSQL's default LIKE escape character is the backslash).
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** ISO 8601 UTC of a timestamp value as either driver returns it (Date or string). */
export function iso(value: Date | string): string;
/** ISO 8601 UTC of a nullable timestamp value; null stays null. */
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/**
 * SQL text: a timestamptz as ISO 8601 UTC with milliseconds, exactly as iso() writes it, formatted by
 * the database (no Date object per value: for the lists every request reads); null stays null.
 */
export function isoSql<T extends string | null = string | null>(column: SQLWrapper): SQL<T> {
  return sql<T>`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * ORDER BY of a list's sort request (contract `sortFields`): the chosen column in the chosen direction
 * (descend by default), then `tieBreak` in the same direction so paging is stable; `fallback` when the
 * request names no field.
 */
export function sortOrder<F extends string>(sort: SortRequest<F>, columns: Record<F, PgColumn | SQL>, tieBreak: PgColumn, fallback: SQL[]): SQL[] {
  if (!sort.sortField) return fallback;
  const direction = sort.sortOrder === 'ascend' ? asc : desc;
  return [direction(columns[sort.sortField]), direction(tieBreak)];
}
