/**
 * Per-device writer locks of the logs deduplicated by (device, seq) without a unique index (the logs
 * are partitioned by day, docs/partitions.md): a transaction takes the lock of every device it is about
 * to store messages of, so two writers of one device's messages wait for each other and the second's
 * insert sees what the first committed. Transaction-scoped advisory locks, taken in id order (no
 * deadlock between writers that take all theirs at once); taking one again in the same transaction is
 * free, so a caller may take the locks of a whole batch first and the log writers their own after.
 */
import { sql } from 'drizzle-orm';
import { numberArray } from './array-literal.js';
import type { Executor } from './client.js';

/** Key space of the locks' writers: heartbeats and event uplinks share one seq per lock. */
export const LOCK_SEQ_WRITERS = 7_140_062;
/** Key space of the air switches' writers (air_switch_uplinks). */
export const AIR_SWITCH_SEQ_WRITERS = 7_140_064;

/** Takes (space, id) for each of `ids` (duplicates allowed) until the transaction ends. */
export async function lockSeqWriters(tx: Executor, space: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`
    select pg_advisory_xact_lock(${space}, s.id)
    from (select distinct id from unnest(${numberArray(ids)}::int[]) as u(id) order by id) s`);
}
