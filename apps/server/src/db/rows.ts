/** Reading execute() results the same way on both drivers (PGlite and node-postgres). */

/**
 * Rows an execute() affected or returned: node-postgres and drizzle's PGlite session both set
 * `rowCount` (inserted/updated rows, or rows returned by a SELECT / RETURNING).
 */
export function rowCount(result: unknown): number {
  const r = result as { rows?: unknown[]; rowCount?: number | null };
  return r.rowCount ?? (Array.isArray(r.rows) ? r.rows.length : 0);
}

/**
 * The key of a row unique on (lock_id, seq): heartbeats and uplinks, one message per (lock, seq)
 * whatever its type (docs/protocol.md). The insert functions of both logs answer with these keys.
 */
export const lockSeqKey = (lockId: number, seq: number): string => `${lockId}:${seq}`;

/** The rows of an execute() result (both drivers return `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
