/**
 * The partition job (docs/partitions.md): keeps the daily partitions of every table of
 * PARTITIONED_TABLES (db/partitions.ts) created ahead, at start and then every SWEEP_MS, so rows of
 * today and the next days never fall into the default partition while the job runs. A week ahead
 * leaves days of slack for a server that is down or a run that fails (logged, tried again at the next
 * sweep); rows without a partition are still stored, in the default one, and move into their
 * partition when it is created. Runs on the owner connection; retention is the tables' own jobs'.
 */
import type { Database } from '../../db/client.js';
import { ensurePartitions, PARTITIONED_TABLES, type PartitionedTable } from '../../db/partitions.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import type { StartedJob } from '../../jobs/plugin.js';

/** Between two sweeps, ms: 6 h, several chances a day against a week of partitions ahead. */
const SWEEP_MS = 6 * 3600_000;

type Log = { info(fields: object, message?: string): void; warn(fields: object, message?: string): void };

/**
 * One pass over `tables`: creates their missing partitions; returns how many it created per table.
 * A table that fails is logged and skipped (the others still get theirs).
 */
export async function maintainPartitions(database: Database, log: Log, tables: readonly PartitionedTable[] = PARTITIONED_TABLES,
  now = new Date()): Promise<Record<string, number>> {
  const made: Record<string, number> = {};
  for (const spec of tables) {
    try {
      made[spec.table] = await ensurePartitions(database.system, spec, now);
      if (made[spec.table]) log.info({ table: spec.table, created: made[spec.table] }, 'partitions created ahead');
    } catch (error) {
      log.warn({ err: error, table: spec.table }, 'partitions not created; tried again at the next sweep');
    }
  }
  return made;
}

/** Starts the job: a pass at once, then one every SWEEP_MS. */
export function startPartitionJob(database: Database, log: Log): StartedJob {
  const loop = startWorkerLoop({
    name: 'partitions', safetyMs: SWEEP_MS, firstRunMs: 0, log,
    run: async () => { await maintainPartitions(database, log); return undefined; },
  });
  return { stop: () => loop.close() };
}
