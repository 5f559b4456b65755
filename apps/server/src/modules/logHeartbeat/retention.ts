/**
 * Heartbeat retention: heartbeats older than HEARTBEAT_RETENTION_DAYS are deleted in bounded batches
 * (each its own short statement, found through the BRIN index on received_at), so the job never holds
 * long locks or one huge transaction. Runs on the owner connection (all tenants).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rowCount } from '../../db/rows.js';

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

/** Deletes heartbeats received more than `days` days ago; returns how many rows went. */
export async function deleteOldHeartbeats(database: Database, options: RetentionOptions): Promise<number> {
  const batchSize = options.batchSize ?? 5000;
  const maxBatches = options.maxBatches ?? 200;
  let deleted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const result = await database.system.execute(sql`
      delete from heartbeats where id in (
        select id from heartbeats where received_at < now() - make_interval(days => ${options.days}) limit ${batchSize})
      returning 1`);
    const n = rowCount(result);
    deleted += n;
    if (n < batchSize) break;
    await new Promise((resolve) => setImmediate(resolve)); // let ingest use the connection between batches
  }
  return deleted;
}

export interface RetentionJob {
  /** Resolves once a run in progress has finished. */
  stop(): Promise<void>;
}

/**
 * Runs deleteOldHeartbeats shortly after start and then every `everyMs` (default 1 h), each run followed
 * by the other tables' retention in `also` (their modules' own deletes, e.g. the sign-in history). Errors
 * are logged, never thrown.
 */
export function startHeartbeatRetention(database: Database, log: RetentionLog,
  options: RetentionOptions & { everyMs?: number; firstAfterMs?: number; also?: readonly (() => Promise<unknown>)[] }): RetentionJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    running = deleteOldHeartbeats(database, options)
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
