/**
 * Heartbeat retention: heartbeats older than HEARTBEAT_RETENTION_DAYS go. The table is partitioned by
 * UTC day (db/partitions.ts), so whole days past the retention are dropped, one cheap statement each;
 * the rows left over (the boundary day, the default partition) are deleted in bounded batches (each
 * its own short statement), so the job never holds long locks or one huge transaction. Runs on the
 * owner connection (all tenants).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { deleteRowsBefore, dropPartitionsBefore } from '../../db/partitions.js';
import { rowsOf } from '../../db/rows.js';

/** The logger the job needs (a subset of pino's, so fastify's `app.log` fits). */
export interface RetentionLog {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
}

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

export interface RetentionJob {
  /** Resolves once a run in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Runs dropOldHeartbeatPartitions and deleteOldHeartbeats shortly after start and then every `everyMs`
 * (default 1 h), each run followed by the other tables' retention in `also` (their modules' own
 * deletes, e.g. the sign-in history). Errors are logged, never thrown.
 */
export function startHeartbeatRetention(database: Database, log: RetentionLog,
  options: RetentionOptions & { everyMs?: number; firstAfterMs?: number; also?: readonly (() => Promise<unknown>)[] }): RetentionJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    running = dropOldHeartbeatPartitions(database, options.days)
      .then((dropped) => { if (dropped.length > 0) log.info({ dropped, days: options.days }, 'old heartbeat partitions dropped'); })
      .then(() => deleteOldHeartbeats(database, options))
      .then((deleted) => { if (deleted > 0) log.info({ deleted, days: options.days }, 'old heartbeats deleted'); })
      .then(async () => { for (const prune of options.also ?? []) await prune(); })
      .catch((error) => log.warn({ err: error }, 'heartbeat retention failed; retrying at the next run'))
      .finally(() => { running = undefined; if (!stopped) schedule(options.everyMs ?? 3600_000); });
  };
  const schedule = (delayMs: number) => { timer = setTimeout(run, delayMs); timer.unref(); };
  schedule(options.firstAfterMs ?? 60_000);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
