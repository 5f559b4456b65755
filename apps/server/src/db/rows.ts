/** Reading execute() results the same way on both drivers (PGlite and node-postgres). */

/**
 * Rows an execute() affected or returned: node-postgres and drizzle's PGlite session both set
 * `rowCount` (inserted/updated rows, or rows returned by a SELECT / RETURNING).
 */
export function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; rowCount?: number | null };
  return r.rowCount ?? (Array.isArray(r.rows) ? r.rows.length : 0);
}

/** The rows of an execute() result (both drivers return `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
