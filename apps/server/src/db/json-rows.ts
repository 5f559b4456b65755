/**
 * Rows as JSON text built by the database, byte for byte as JSON.stringify writes the same values
 * (http/json-text.ts): `row_to_json` writes `{"key":value,...}` with no spaces, keys in select order,
 * strings escaped as JSON.stringify escapes them (json_build_object would write `"key" : value`).
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** `fields` as a select's fields, each aliased by its key (the key becomes the row's JSON key). */
export function jsonFields<F extends Record<string, SQLWrapper>>(fields: F): { [K in keyof F]: SQL.Aliased } {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, sql`${value}`.as(key)])) as { [K in keyof F]: SQL.Aliased };
}

/**
 * A nested JSON object of `fields` (keys in order) on each row, e.g. a record's `location`: `join` goes
 * into the select as a cross join lateral (a FROM-less subquery, which PostgreSQL folds into the row), and
 * `json` is the object. A scalar sub-select (`(select row_to_json(x) from (select ...) as x)`) ran as a
 * sub-plan per row instead: about 10 % of the 20-row lock list's PostgreSQL time (bench/RESULTS.md, 2026-11-30).
 */
export function jsonObjectLateral(alias: string, fields: Record<string, SQLWrapper>): { join: SQL; json: SQL } {
  const columns = sql.join(Object.entries(fields).map(([key, value]) => sql`${value} as ${sql.identifier(key)}`), sql`, `);
  return { join: sql`(select ${columns}) as ${sql.identifier(alias)}`, json: sql`row_to_json(${sql.identifier(alias)})` };
}

/**
 * SQL text: the rows of the subquery aliased `alias` (every column, in select order) as a JSON array
 * ordered by `orderBy` (a column of it); `[]` when it has none. Aggregates: its select has no other rows.
 */
export function jsonArraySql(alias: string, orderBy: SQLWrapper): SQL<string> {
  return sql<string>`'[' || coalesce(string_agg(row_to_json(${sql.identifier(alias)})::text, ',' order by ${orderBy}), '') || ']'`;
}
