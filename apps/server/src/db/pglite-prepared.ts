/**
 * Plan caching for PGlite. PGlite runs every query as an unnamed statement, so PostgreSQL plans it
 * again on every call; in WASM, with every relation's size read through Node's fstat (Emscripten's
 * file system), planning was most of a read: the lock list's statement took 7.8 ms planned each
 * time and 1.1-1.7 ms from a cached generic plan (30 fstat calls against 2).
 *
 * A statement of db/prepared.ts is therefore PREPAREd once in the PGlite session under its name and
 * run as `EXECUTE name('value', ...)`. PGlite is one session for the whole process, and PREPARE is not
 * transactional (a rolled-back transaction keeps it), so each name is prepared once per database.
 * EXECUTE takes no bind parameters, so the values go in as quoted literals of unknown type, which
 * PostgreSQL converts to each parameter's type as it would a bound text value; this relies on
 * standard_conforming_strings (on since PostgreSQL 9.1, never changed here), where a backslash is an
 * ordinary character. A value that is not a string, number, bigint, boolean, Date or null, or a
 * string holding a NUL character, is run the ordinary way, with bound parameters.
 *
 * Some statements are keyed by day (the device logs' recent window), so a long-running server would
 * prepare new ones every day: at most MAX_PREPARED stay prepared per database, the least recently
 * used deallocated first (prepared again if used again).
 */

/** What a drizzle PGlite prepared query calls on its `client`: PGlite's (or a PGlite transaction's) query. */
export interface PgliteQueryable {
  query(text: string, params?: unknown[], options?: unknown): Promise<unknown>;
}

/** SQLSTATE duplicate_prepared_statement: the name is already prepared in the session. */
const DUPLICATE_PREPARED_STATEMENT = '42P05';
/** SQLSTATE invalid_sql_statement_name: no statement of that name is prepared. */
const NO_SUCH_PREPARED_STATEMENT = '26000';

/** A parameter value as an SQL literal of unknown type, or undefined when it has none here. */
function literalOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'bigint' || typeof value === 'boolean') text = String(value);
  else if (value instanceof Date) text = value.toISOString();
  else return undefined;
  if (text.includes('\0')) return undefined;
  return `'${text.replaceAll("'", "''")}'`;
}

/** Statements kept PREPAREd per database (each holds its plan in PGlite's memory). */
export const MAX_PREPARED = 100;

/** Names prepared (or being prepared) per database, least recently used first, keyed by an object that lives as long as it (drizzle's dialect). */
const preparedByDatabase = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * A client for one drizzle PGlite prepared query: `query(text, params)` runs the PREPAREd statement
 * `name` (whose text is `text`) with `params`, preparing it first when `database` has not yet.
 * `current()` gives the PGlite client of the transaction running it, read when the query starts.
 */
export function preparedPgliteClient(database: object, name: string, current: () => PgliteQueryable): PgliteQueryable {
  let prepared = preparedByDatabase.get(database);
  if (!prepared) {
    prepared = new Map();
    preparedByDatabase.set(database, prepared);
  }
  const names = prepared;
  return {
    async query(text, params = [], options) {
      const client = current();
      const literals = params.map(literalOf);
      if (literals.some((literal) => literal === undefined)) return client.query(text, params, options);
      let ready = names.get(name);
      if (ready) {
        names.delete(name); // most recently used last
        names.set(name, ready);
      } else {
        await evictOldest(names, client);
        ready = client.query(`prepare ${name} as ${text}`).then(
          () => undefined,
          (error: unknown) => {
            if ((error as { code?: string }).code === DUPLICATE_PREPARED_STATEMENT) return;
            names.delete(name);
            throw error;
          },
        );
        names.set(name, ready);
      }
      await ready;
      try {
        return await client.query(literals.length ? `execute ${name}(${literals.join(', ')})` : `execute ${name}`, [], options);
      } catch (error) {
        if ((error as { code?: string }).code !== NO_SUCH_PREPARED_STATEMENT) throw error;
        names.delete(name); // deallocated meanwhile by another query of the transaction: run it bound
        return client.query(text, params, options);
      }
    },
  };
}

/** Deallocates the least recently used statements of `names` until one more fits under MAX_PREPARED. */
async function evictOldest(names: Map<string, Promise<void>>, client: PgliteQueryable): Promise<void> {
  while (names.size >= MAX_PREPARED) {
    const [oldest, ready] = names.entries().next().value as [string, Promise<void>];
    names.delete(oldest);
    // Prepared, or failed (then there is nothing to deallocate); `if exists` is not a DEALLOCATE option.
    if (await ready.then(() => true, () => false)) await client.query(`deallocate ${oldest}`);
  }
}
