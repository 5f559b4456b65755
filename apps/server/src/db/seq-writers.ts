/**
 * Per-device writer locks of the logs deduplicated by (device, seq) without a unique index (the logs
 * are partitioned by day, docs/partitions.md): a transaction takes the lock of every device it is about
 * to store messages of, so two writers of one device's messages wait for each other and the second's
 * insert sees what the first committed. Transaction-scoped advisory locks, taken in id order (no
 * deadlock between writers that take all theirs at once). The locks a transaction holds are remembered
 * with its executor, so a caller may take the locks of a whole batch first and the log writers asking
 * for theirs after cost no statement (the gateway's batch: one statement, not three).
 */
import { sql } from 'drizzle-orm';
import { numberArray } from './array-literal.js';
import type { Executor } from './client.js';

/** Key space of the locks' writers: heartbeats and event uplinks share one seq per lock. */
export const LOCK_SEQ_WRITERS = 7_140_062;
/** Key space of the air switches' writers (their rows of the uplink log). */
export const AIR_SWITCH_SEQ_WRITERS = 7_140_064;

/**
 * Locks held, per transaction executor and key space. A savepoint (a nested transaction) has an executor
 * of its own: what it takes is not counted for its parent, whose rollback to the savepoint releases it.
 */
const held = new WeakMap<Executor, Map<number, Set<number>>>();

/** Takes (space, id) for each of `ids` (duplicates allowed) until the transaction ends; those `tx` holds already cost nothing. */
export async function lockSeqWriters(tx: Executor, space: number, ids: readonly number[]): Promise<void> {
  const spaces = held.get(tx) ?? new Map<number, Set<number>>();
  held.set(tx, spaces);
  const mine = spaces.get(space) ?? new Set<number>();
  spaces.set(space, mine);
  const wanted = [...new Set(ids)].filter((id) => !mine.has(id));
  if (wanted.length === 0) return;
  await tx.execute(sql`
    select pg_advisory_xact_lock(${space}, s.id)
    from (select id from unnest(${numberArray(wanted)}::int[]) as u(id) order by id) s`);
  for (const id of wanted) mine.add(id);
}
