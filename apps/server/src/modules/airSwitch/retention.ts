/**
 * Raw air switch uplinks (telemetry included) older than TELEMETRY_RETENTION_DAYS are deleted in
 * bounded batches, as heartbeats are (modules/logHeartbeat/retention.ts); the hourly and daily rollups
 * are kept for good. Owner connection (all tenants).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rowCount } from '../../db/rows.js';

/** Deletes uplinks received more than `days` days ago (at most `maxBatches` x `batchSize` rows); returns how many went. */
export async function deleteOldAirSwitchUplinks(database: Database, options: { days: number; batchSize?: number; maxBatches?: number }): Promise<number> {
  const batchSize = options.batchSize ?? 5000;
  let deleted = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 200); batch++) {
    const n = rowCount(await database.system.execute(sql`
      delete from air_switch_uplinks where id in (
        select id from air_switch_uplinks where received_at < now() - make_interval(days => ${options.days}) limit ${batchSize})
      returning 1`));
    deleted += n;
    if (n < batchSize) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return deleted;
}

/** Runs deleteOldAirSwitchUplinks a minute after start and then hourly; errors are logged, never thrown. */
export function startAirSwitchRetention(database: Database, log: { info(o: object, m?: string): void; warn(o: object, m?: string): void }, days: number) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    running = deleteOldAirSwitchUplinks(database, { days })
      .then((deleted) => { if (deleted > 0) log.info({ deleted, days }, 'old air switch uplinks deleted'); })
      .catch((error) => log.warn({ err: error }, 'air switch retention failed; retrying at the next run'))
      .finally(() => { running = undefined; if (!stopped) schedule(3600_000); });
  };
  const schedule = (ms: number) => { timer = setTimeout(run, ms); timer.unref(); };
  schedule(60_000);
  return { async stop() { stopped = true; clearTimeout(timer); await running; } };
}
