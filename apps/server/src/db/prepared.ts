/**
 * Prepared statements kept per connection handle: a query every
 * request runs is built by drizzle once per handle and, on PostgreSQL, parsed once per connection
 * (a named statement), so neither drizzle nor PostgreSQL builds it again. Handles of the tenant read
 * pool live as long as their connection; a transaction's handle lives for the transaction, and its
 * entry goes with it (WeakMap). Row-level security still applies per execution: PostgreSQL re-plans a
 * cached plan when the role it was planned for changes.
 */

const cache = new WeakMap<object, Map<string, unknown>>();
/** Statement names by key: short (PostgreSQL truncates names at 63 bytes) and one per key in the process. */
const names = new Map<string, string>();

/**
 * The statement of `key` prepared on `handle` by `prepare` (called on the first use per handle only,
 * with the statement's name). `key` must stand for one SQL text for the whole process.
 */
export function preparedOn<P>(handle: object, key: string, prepare: (name: string) => P): P {
  let statements = cache.get(handle);
  if (!statements) {
    statements = new Map();
    cache.set(handle, statements);
  }
  let statement = statements.get(key) as P | undefined;
  if (statement === undefined) {
    let name = names.get(key);
    if (name === undefined) {
      name = `prepared_${names.size + 1}`;
      names.set(key, name);
    }
    statement = prepare(name);
    statements.set(key, statement);
  }
  return statement;
}
