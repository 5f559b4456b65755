/**
 * The presence sweep as a worker (presence.ts): it sleeps until the earliest time a lock online may
 * fall silent or a follower has something due (a silentLock alarm), with a safety sweep every
 * `safetyMs`; a lock coming online (its `lock.presence` event, from any instance) makes it look at
 * its due time again. At most one sweep every `minDelayMs`: a lock goes offline at most that late.
 */
import type { Database } from '../../db/client.js';
import { SAFETY_SWEEP_MS } from '../../config.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import type { StartedJob } from '../../jobs/plugin.js';
import { nextPresenceDueMs, type PresenceFollower, sweepPresence } from './presence.js';

export interface PresenceSweepOptions {
  /** Longest sleep, ms (default SAFETY_SWEEP_MS, 5 min). */
  safetyMs?: number;
  /** Shortest time between sweeps, ms (default 5000). */
  minDelayMs?: number;
}

/** Starts the sweep; failures are logged and retried at the next due time. */
export function startPresenceSweep(database: Database, log: { warn(fields: object, message?: string): void }, followers: readonly PresenceFollower[], options: PresenceSweepOptions = {}): StartedJob {
  const loop = startWorkerLoop({
    name: 'presence sweep', safetyMs: options.safetyMs ?? SAFETY_SWEEP_MS, minDelayMs: options.minDelayMs ?? 5000, log,
    async run(due) {
      if (due) await sweepPresence(database, followers);
      return nextPresenceDueMs(database.system, followers);
    },
  });
  const stops = [
    database.events.on('lock.presence', ({ presence }) => { if (presence === 'online') loop.wake(); }),
    database.events.onResync(() => loop.wake()),
  ];
  return {
    async stop() {
      for (const stop of stops) stop();
      await loop.close();
    },
  };
}
