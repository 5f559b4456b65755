/** Recognises PostgreSQL errors the API answers with a contract code instead of a 500. */

/** True when `error` (or an error it wraps, e.g. Drizzle's DrizzleQueryError) is a unique_violation. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}
