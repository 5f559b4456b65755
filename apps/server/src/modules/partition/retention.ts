/**
 * Log retention (docs/partitions.md "Retention drops days"): one hourly job for every partitioned log.
 * Each log keeps its own number of days (a setting); past it, whole UTC days are dropped (one cheap
 * `DROP TABLE` each) and the rows left over (the boundary day, the default partition) are deleted in
 * bounded batches (db/partitions.ts pruneLog), so the job never holds long locks or one huge
 * transaction. After the logs, the `also` tasks run (other tables' own deletes, e.g. the sign-in
 * history). Runs on the owner connection (all tenants). A log that fails is logged and tried again at
 * the next run; the others still run.
 */
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { PARTITIONED_TABLES, type PartitionedTable, pruneLog, type RowDeleteOptions } from '../../db/partitions.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import type { StartedJob } from '../../jobs/plugin.js';

/** One retained log: its partitioned table, key column and how many days it keeps, d. */
export interface RetainedLog extends Pick<PartitionedTable, 'table' | 'keyColumn'> {
  days: number;
}

/** The setting that says how many days each partitioned log keeps (README "Settings"). */
const RETENTION_SETTINGS = {
  heartbeats: 'HEARTBEAT_RETENTION_DAYS',
  lock_uplinks: 'UPLINK_RETENTION_DAYS',
  open_records: 'UNLOCK_RECORD_RETENTION_DAYS',
  audit_log: 'SYSTEM_LOG_RETENTION_DAYS',
  air_switch_uplinks: 'TELEMETRY_RETENTION_DAYS',
} as const satisfies Record<string, keyof Config>;

type RetentionSettings = Pick<Config, (typeof RETENTION_SETTINGS)[keyof typeof RETENTION_SETTINGS]>;

/** Every table of PARTITIONED_TABLES with the days its setting keeps; throws for a partitioned table without a setting. */
export function retainedLogs(config: RetentionSettings): RetainedLog[] {
  return PARTITIONED_TABLES.map(({ table, keyColumn }) => {
    const setting = (RETENTION_SETTINGS as Record<string, keyof RetentionSettings>)[table];
    if (!setting) throw new Error(`partitioned table ${table} has no retention setting (modules/partition/retention.ts)`);
    return { table, keyColumn, days: config[setting] };
  });
}

type Log = { info(fields: object, message?: string): void; warn(fields: object, message?: string): void };

/** What one pass did to one log: the partitions dropped and the rows deleted, or the error. */
export interface PrunedLog {
  dropped: string[];
  deleted: number;
  failed?: true;
}

/** One pass over `logs` (each pruned by pruneLog); returns what it did per table. Never throws for a log's error. */
export async function pruneLogs(database: Database, log: Log, logs: readonly RetainedLog[],
  options: RowDeleteOptions = {}): Promise<Record<string, PrunedLog>> {
  const done: Record<string, PrunedLog> = {};
  for (const retained of logs) {
    try {
      const { dropped, deleted } = await pruneLog(database.system, retained, retained.days, options);
      done[retained.table] = { dropped, deleted };
      if (dropped.length > 0 || deleted > 0) log.info({ table: retained.table, days: retained.days, dropped, deleted }, 'old log rows removed');
    } catch (error) {
      done[retained.table] = { dropped: [], deleted: 0, failed: true };
      log.warn({ err: error, table: retained.table }, 'log retention failed; tried again at the next run');
    }
  }
  return done;
}

export interface LogRetentionOptions {
  logs: readonly RetainedLog[];
  /** Run after the logs, each in turn (errors logged). */
  also?: readonly (() => Promise<unknown>)[];
  /** Between runs, ms (default 1 h). */
  everyMs?: number;
  /** The first run after start, ms (default 60,000: not in the start's rush). */
  firstAfterMs?: number;
}

/** Starts the retention job: a run `firstAfterMs` after start, then every `everyMs`. */
export function startLogRetention(database: Database, log: Log, options: LogRetentionOptions): StartedJob {
  const loop = startWorkerLoop({
    name: 'log retention', safetyMs: options.everyMs ?? 3600_000, firstRunMs: options.firstAfterMs ?? 60_000, log,
    run: async () => {
      await pruneLogs(database, log, options.logs);
      for (const task of options.also ?? []) {
        await task().catch((error: unknown) => log.warn({ err: error }, 'retention task failed; tried again at the next run'));
      }
      return undefined;
    },
  });
  return { stop: () => loop.close() };
}
