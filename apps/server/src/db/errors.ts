/** Recognises PostgreSQL errors the API answers with a contract code instead of a 500. */

/** The SQLSTATE of `error` or of an error it wraps (e.g. Drizzle's DrizzleQueryError); undefined for none. */
function sqlStateOf(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e && typeof e === 'object'; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** True when `error` (or an error it wraps, e.g. Drizzle's DrizzleQueryError) is a unique_violation. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}

/**
 * SQLSTATEs that say a value from the request cannot be held (PostgreSQL appendix A): class 22 "data
 * exception" (22008 datetime field overflow, 22003 numeric value out of range, 22P02 invalid text
 * representation, 22001 string data right truncation, 22021 character not in repertoire / bad
 * encoding, 22007 invalid datetime format, ...) and 54000 program limit exceeded (e.g. an index row or
 * an array too large). The request's fault: the contract should have refused it.
 */
export function isDataException(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && (state.startsWith('22') || state === '54000');
}

/**
 * True for the SQLSTATEs PostgreSQL asks the client to answer by running the transaction again
 * (appendix A, class 40 "transaction rollback"): 40P01 deadlock_detected and 40001
 * serialization_failure. Two writers taking the same rows in different orders (e.g. a bulk apply
 * locking locks 1, 2, 3 while a device's uplink updates lock 2 then its commands) end in one of them.
 */
export function isTransientConflict(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state === '40P01' || state === '40001';
}
