/**
 * Heartbeat retention: heartbeats older than HEARTBEAT_RETENTION_DAYS go. The table is partitioned by
 * UTC day (db/partitions.ts), so whole days past the retention are dropped, one cheap statement each;
 * the rows left over (the boundary day, the default partition) are deleted in bounded batches (each
 * its own short statement). The hourly job that calls this for every log is modules/partition/retention.ts
 * (pruneLog); these two steps are the heartbeat log's, apart, for its tests and benchmarks. Owner connection.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { deleteRowsBefore, dropPartitionsBefore } from '../../db/partitions.js';
import { rowsOf } from '../../db/rows.js';

export interface RetentionOptions {
  /** Keep this many days, d. */
  days: number;
  /** Rows per delete statement (default 5000). */
  batchSize?: number;
  /** At most this many batches per run (default 200: 1,000,000 rows); the next run continues. */
  maxBatches?: number;
}

const HEARTBEATS = { table: 'heartbeats', keyColumn: 'received_at' };

/** Drops the daily partitions of heartbeats older than `days` days; returns their names. */
export async function dropOldHeartbeatPartitions(database: Database, days: number): Promise<string[]> {
  const [row] = rowsOf<{ cutoff: Date | string }>(await database.system.execute(sql`
    select now() - make_interval(days => ${days}) as cutoff`));
  return dropPartitionsBefore(database.system, 'heartbeats', new Date(row?.cutoff ?? 0));
}

/**
 * Deletes the rows of heartbeats received more than `days` days ago that no dropped partition took
 * (the boundary day's, the default partition's); returns how many rows went.
 */
export async function deleteOldHeartbeats(database: Database, options: RetentionOptions): Promise<number> {
  return deleteRowsBefore(database.system, HEARTBEATS, options.days, options);
}
