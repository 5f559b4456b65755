/**
 * Raw air switch uplinks (telemetry included) older than TELEMETRY_RETENTION_DAYS go as heartbeats do
 * (modules/logHeartbeat/retention.ts): the table is partitioned by UTC day, so whole days past the
 * retention are dropped, and the rows left over (the boundary day, the default partition) are deleted
 * in bounded batches. The hourly and daily rollups are kept for good. Owner connection (all tenants).
 */
import type { Database } from '../../db/client.js';
import { pruneLog, type RowDeleteOptions } from '../../db/partitions.js';

/**
 * Drops the daily partitions of air_switch_uplinks older than `days` days, then deletes the older rows
 * left over (at most `maxBatches` x `batchSize`); returns the dropped partitions and the rows deleted.
 */
export async function deleteOldAirSwitchUplinks(database: Database, options: RowDeleteOptions & { days: number }): Promise<{ dropped: string[]; deleted: number }> {
  return pruneLog(database.system, { table: 'air_switch_uplinks', keyColumn: 'received_at' }, options.days, options);
}

/** Runs deleteOldAirSwitchUplinks a minute after start and then hourly; errors are logged, never thrown. */
export function startAirSwitchRetention(database: Database, log: { info(o: object, m?: string): void; warn(o: object, m?: string): void }, days: number) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    running = deleteOldAirSwitchUplinks(database, { days })
      .then(({ dropped, deleted }) => { if (dropped.length > 0 || deleted > 0) log.info({ dropped, deleted, days }, 'old air switch uplinks deleted'); })
      .catch((error) => log.warn({ err: error }, 'air switch retention failed; retrying at the next run'))
      .finally(() => { running = undefined; if (!stopped) schedule(3600_000); });
  };
  const schedule = (ms: number) => { timer = setTimeout(run, ms); timer.unref(); };
  schedule(60_000);
  return { async stop() { stopped = true; clearTimeout(timer); await running; } };
}
