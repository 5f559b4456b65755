/**
 * The analysis job of each server instance (no busy polling). It runs when data changed
 * and something is due, never on a bare timer:
 * - `rollupMs` after start (not at once: the catch-up holds the embedded database, and with it the
 *   event loop, which would shed the first requests with 503s): the rollups (runRollups catches up
 *   after downtime; safe on several instances) and the forecasts (batteryCliff);
 * - after a change (an event of a lock, a command or an air switch, from any instance): once per
 *   `rollupMs` (default 5 s, config ANALYSIS_SNAPSHOT_MS) while changes keep coming, the rollups, the
 *   quiet-bruteForce clearing and, from the second run on, the due parts of the analysis snapshots
 *   (snapshot.ts); the forecasts again once `forecastMs` (10 min) passed since the last ones;
 * - when an active bruteForce alert's window ends (it is cleared then);
 * - at a safety sweep every `safetyMs` (default 10 min) if nothing else ran.
 * An instance with no data and no change makes no query.
 */
import type { EventName } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import type { StartedJob } from '../../jobs/plugin.js';
import { clearQuietBruteForce } from './derived.js';
import { runForecasts } from './forecast.js';
import { runRollups } from './rollup.js';
import { refreshSnapshots, type SnapshotPeriods } from './snapshot.js';
import { thresholdsOf } from './thresholds.js';

/** Events whose change the analysis (rollups, snapshots) follows. */
const CHANGES: ReadonlySet<EventName> = new Set<EventName>([
  'lock.heartbeat', 'lock.uplink', 'lock.alarm', 'lock.presence', 'lock.changed', 'command.queued', 'command.state', 'airSwitch.reading', 'airSwitch.alarm',
]);

export interface AnalysisJobOptions {
  /** Shortest time between runs while data changes, ms (default 5000). */
  rollupMs?: number;
  /** Forecasts at most this often, ms (default 600,000). */
  forecastMs?: number;
  /** Longest sleep, ms (default 600,000). */
  safetyMs?: number;
  wakeWindowMs: number;
  snapshots: SnapshotPeriods;
}

/** Starts the job; failures are logged and retried at the next run. */
export function startAnalysisJob(database: Database, log: { warn(fields: object, message?: string): void }, options: AnalysisJobOptions): StartedJob {
  const rollupMs = options.rollupMs ?? 5_000;
  const forecastMs = options.forecastMs ?? 600_000;
  let lastForecast = Number.NEGATIVE_INFINITY;
  let changedSinceForecast = true;
  let runs = 0;
  const once = async () => {
    await runRollups(database);
    await database.transaction((tx) => clearQuietBruteForce(tx));
    if (changedSinceForecast && Date.now() - lastForecast >= forecastMs) {
      lastForecast = Date.now();
      changedSinceForecast = false;
      await runForecasts(database);
    }
    // Not in the first run: at start the catch-up rollups and the forecasts already hold the embedded
    // database (and with it the event loop, which sheds load with 503s); until the second run requests
    // compute the analysis themselves (red in CI: a sign-in right after start answered 503).
    if (runs++ > 0) await refreshSnapshots(database, options.wakeWindowMs, options.snapshots);
    const due = [await quietBruteForceDueMs(database)];
    if (changedSinceForecast) due.push(lastForecast + forecastMs - Date.now());
    const known = due.filter((ms): ms is number => ms !== undefined);
    return known.length === 0 ? undefined : Math.max(rollupMs, Math.min(...known));
  };
  const loop = startWorkerLoop({ name: 'analysis', run: once, safetyMs: options.safetyMs ?? 600_000, firstRunMs: rollupMs, log });
  const stop = database.events.onAll(({ name }) => {
    if (!CHANGES.has(name)) return;
    changedSinceForecast = true;
    loop.dueIn(rollupMs);
  });
  return {
    async stop() {
      stop();
      await loop.close();
    },
  };
}

/** ms until the first active bruteForce alert's window ends (clearQuietBruteForce clears it); undefined when none is active. */
async function quietBruteForceDueMs(database: Database): Promise<number | undefined> {
  const [row] = rowsOf<{ ms: number | null }>(await database.system.execute(sql`
    select extract(epoch from min(a.last_at + make_interval(secs => th.brute_force_window_s)) - now()) * 1000 as ms
    from alerts a cross join lateral ${thresholdsOf(sql`a.tenant_id`)}
    where a.device_kind = 'lock' and a.kind = 'bruteForce' and a.state = 'active'`));
  return row?.ms == null ? undefined : Number(row.ms);
}
