/**
 * Prepared statements kept per connection handle: a query every
 * request runs is built by drizzle once per handle and, on PostgreSQL, parsed once per connection
 * (a named statement), so neither drizzle nor PostgreSQL builds it again. Handles of the tenant read
 * pool live as long as their connection; a transaction's handle lives for the transaction, and its
 * entry goes with it (WeakMap). Row-level security still applies per execution: PostgreSQL re-plans a
 * cached plan when the role it was planned for changes.
 *
 * Their rows are mapped by a mapper compiled once per statement (compiledRows): drizzle's own looks up
 * every field's kind on every row, which was most of the server's CPU for a 100-row lock-room list.
 */

import { Column, is, type Placeholder, SQL, Subquery, sql } from 'drizzle-orm';
import { PgliteTransaction } from 'drizzle-orm/pglite';
import { type PgliteQueryable, preparedPgliteClient } from './pglite-prepared.js';

const cache = new WeakMap<object, Map<string, unknown>>();

/**
 * The console's page sizes (antd's options): a prepared page writes these into its SQL instead of a
 * LIMIT placeholder, so that PostgreSQL keeps one generic plan (with `LIMIT $n` it expects a tenth of
 * the rows, finds the generic plan dearer than a custom one and plans every request: 0.5-0.9 ms for the
 * lock list at 100,000 locks, 0.65 ms for the heartbeat page). Other sizes stay placeholders, so the
 * statements per connection stay bounded.
 */
export const CONSOLE_PAGE_SIZES: ReadonlySet<number> = new Set([10, 20, 50, 100]);

/** The paging part of a prepared page's key (pagedForPrepare): the size when written into the SQL, and first page or not. */
export function pagingShape(size: number, offset: number): string {
  return `${CONSOLE_PAGE_SIZES.has(size) ? size : 'n'}:${offset === 0 ? 'first' : 'offset'}`;
}

/** What pagedForPrepare needs of a dynamic select (`$dynamic()`). */
interface Pageable<Q> {
  limit(limit: number | Placeholder): Q;
  offset(offset: number | Placeholder): Q;
}

/**
 * `query` with the paging of a prepared page of `size` rows from `offset`: a console page size as SQL
 * text, else the placeholder `limit`; no OFFSET on the first page, else the placeholder `offset`. Key
 * the statement with pagingShape(size, offset) and execute it with `{ limit: size, offset }`.
 */
export function pagedForPrepare<Q extends Pageable<Q>>(query: Q, size: number, offset: number): Q {
  // A number would go in as a parameter: the size is written as SQL text (an integer of CONSOLE_PAGE_SIZES).
  const limited = query.limit(CONSOLE_PAGE_SIZES.has(size) ? sql.raw(String(size)) as unknown as Placeholder : sql.placeholder('limit'));
  return offset === 0 ? limited : limited.offset(sql.placeholder('offset'));
}
/** Statement names by key: short (PostgreSQL truncates names at 63 bytes) and one per key in the process. */
const names = new Map<string, string>();

/**
 * The statement of `key` prepared on `handle` by `prepare` (called on the first use per handle only,
 * with the statement's name). `key` must stand for one SQL text for the whole process. On PGlite a
 * transaction's handle (and its client) is new for every transaction, so its statements are kept per
 * database and run on the current transaction's client (pointed there before each use; execute reads
 * it synchronously): built anew every request they cost 1.4 ms of the lock list's 4.8 ms of CPU. There
 * they run as PREPAREd statements of the PGlite session, so PostgreSQL keeps their plans (pglite-prepared.ts).
 */
export function preparedOn<P>(handle: object, key: string, prepare: (name: string) => P): P {
  if (!is(handle, PgliteTransaction)) return statementOf(handle, key, prepare);
  const { dialect, session } = handle as unknown as DrizzleHandle;
  const statement = statementOf(dialect, key, (name) => {
    const built = prepare(name);
    const target = { client: session.client as PgliteQueryable };
    pgliteTargets.set(built as object, target);
    (built as { client: unknown }).client = preparedPgliteClient(dialect, name, () => target.client);
    return built;
  });
  const target = pgliteTargets.get(statement as object);
  if (target) target.client = session.client as PgliteQueryable;
  return statement;
}

/** The transaction client each PGlite statement runs on next (set by preparedOn before every use). */
const pgliteTargets = new WeakMap<object, { client: PgliteQueryable }>();

/** What preparedOn reads of a drizzle transaction handle (drizzle 0.45): its dialect (one per database) and session's client. */
interface DrizzleHandle {
  dialect: object;
  session: { client: unknown };
}

/** The statement of `key` kept for `owner`, prepared (and its rows compiled) on first use. */
function statementOf<P>(owner: object, key: string, prepare: (name: string) => P): P {
  let statements = cache.get(owner);
  if (!statements) {
    statements = new Map();
    cache.set(owner, statements);
  }
  let statement = statements.get(key) as P | undefined;
  if (statement === undefined) {
    let name = names.get(key);
    if (name === undefined) {
      name = `prepared_${names.size + 1}`;
      names.set(key, name);
    }
    statement = compiledRows(prepare(name));
    statements.set(key, statement);
  }
  return statement;
}

/** What compiledRows reads and sets on a drizzle prepared select (node-postgres and PGlite alike, drizzle 0.45). */
interface MappedQuery {
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/** A field's decoder (drizzle's internal `decoder` of SQL, or the column itself). */
interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** The decoder drizzle's mapResultRow would use for `field`. */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

/**
 * `prepared` (a drizzle prepared select) with its rows mapped as drizzle maps them, by a mapper
 * compiled once from its fields: each field's key and decoder are found once, not on every row. Only
 * flat selections (every key at the top level, no joined table as a nested object); anything else, or
 * a statement that is not a select, is returned as drizzle maps it.
 */
export function compiledRows<P>(prepared: P): P {
  const query = prepared as MappedQuery;
  const fields = query.fields;
  if (!Array.isArray(fields) || query.customResultMapper || fields.some((entry) => entry.path.length !== 1)) return prepared;
  const keys = fields.map((entry) => entry.path[0] as string);
  const decoders = fields.map((entry) => decoderOf(entry.field));
  query.customResultMapper = (rows) => rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = row[i];
      record[keys[i] as string] = value === null ? null : (decoders[i] as Decoder).mapFromDriverValue(value);
    }
    return record;
  });
  return prepared;
}
