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

/** SQL json: an object of `fields` (keys in order), e.g. a nested `location` of a record. */
export function jsonObjectSql(fields: Record<string, SQLWrapper>): SQL {
  const columns = sql.join(Object.entries(fields).map(([key, value]) => sql`${value} as ${sql.identifier(key)}`), sql`, `);
  return sql`(select row_to_json(x) from (select ${columns}) as x)`;
}

/**
 * SQL text: the rows of the subquery aliased `alias` (every column, in select order) as a JSON array
 * ordered by `orderBy` (a column of it); `[]` when it has none. Aggregates: its select has no other rows.
 */
export function jsonArraySql(alias: string, orderBy: SQLWrapper): SQL<string> {
  return sql<string>`'[' || coalesce(string_agg(row_to_json(${sql.identifier(alias)})::text, ',' order by ${orderBy}), '') || ']'`;
}
