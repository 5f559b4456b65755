/**
 * The analysis job of each server instance: rollups every `rollupMs` (default 5 s; runRollups is safe on
 * several instances and catches up after downtime, starting at once), forecasts and batteryCliff every
 * `forecastMs` (default 10 min, also at start), the quiet-bruteForce clearing with each rollup, and
 * then, from the second run on, the due parts of the analysis snapshots (snapshot.ts: the current part
 * every `snapshots.currentMs`).
 */
import type { Database } from '../../db/client.js';
import { clearQuietBruteForce } from './derived.js';
import { runForecasts } from './forecast.js';
import { runRollups } from './rollup.js';
import { refreshSnapshots, type SnapshotPeriods } from './snapshot.js';

export interface AnalysisJob {
  /** Resolves once a run in progress has finished. */
  stop(): Promise<void>;
}

/** Starts the job; failures are logged and retried at the next run. */
export function startAnalysisJob(database: Database, log: { warn(fields: object, message?: string): void }, options: { rollupMs?: number; forecastMs?: number; wakeWindowMs: number; snapshots: SnapshotPeriods }): AnalysisJob {
  const rollupMs = options.rollupMs ?? 5_000;
  const forecastMs = options.forecastMs ?? 600_000;
  let lastForecast = 0;
  let runs = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const once = async () => {
    await runRollups(database);
    await database.transaction((tx) => clearQuietBruteForce(tx));
    if (Date.now() - lastForecast >= forecastMs) {
      lastForecast = Date.now();
      await runForecasts(database);
    }
    // Not in the first run: at start the catch-up rollups and the forecasts already hold the embedded
    // database (and with it the event loop, which sheds load with 503s); until the second run requests
    // compute the analysis themselves (red in CI: a sign-in right after start answered 503).
    if (runs++ > 0) await refreshSnapshots(database, options.wakeWindowMs, options.snapshots);
  };
  const run = () => {
    running = once()
      .catch((error) => log.warn({ err: error }, 'analysis job failed; retrying at the next run'))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule(rollupMs);
      });
  };
  const schedule = (ms: number) => {
    timer = setTimeout(run, ms);
    timer.unref();
  };
  schedule(0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
