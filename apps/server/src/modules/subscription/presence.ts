/**
 * Presence sweep (issue #16 "device online/offline"): every `everyMs` (default 15 s) the locks announced
 * online whose heartbeats stopped (lockDevice markSilentLocksOffline: ONLINE_HEARTBEAT_FACTOR x their
 * interval, the console's online rule) become offline, and an offline presence event goes to the
 * delivery outbox in the same transaction. Safe with several server instances: each transition is
 * written, and so pushed, once. The online side is written by the ingest (gateway/uplink-store.ts).
 */
import type { Database } from '../../db/client.js';
import { raiseSilentLocks } from '../analysis/derived.js';
import { markSilentLocksOffline } from '../lockDevice/service.js';
import { enqueuePushEvents, presenceEvent } from './outbox.js';

/** Marks silent locks offline and queues their events; returns how many locks went offline. */
export async function sweepPresence(database: Database): Promise<number> {
  return database.transaction(async (tx) => {
    const gone = await markSilentLocksOffline(tx);
    const now = Date.now();
    await enqueuePushEvents(tx, gone.map((lock) => presenceEvent(lock.tenantId, lock.id, lock.imei, 'offline', now, null, lock.lastHeartbeatAt)));
    await raiseSilentLocks(tx); // issue #14: offline past silentIntervals x the lock's interval
    return gone.length;
  });
}

export interface PresenceSweep {
  /** Resolves once a sweep in progress has finished. */
  stop(): Promise<void>;
}

/** Runs sweepPresence every `everyMs` ms; failures are logged and retried at the next run. */
export function startPresenceSweep(database: Database, log: { warn(fields: object, message?: string): void }, everyMs = 15_000): PresenceSweep {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    running = sweepPresence(database)
      .then(() => undefined)
      .catch((error) => log.warn({ err: error }, 'presence sweep failed; retrying at the next run'))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(run, everyMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
