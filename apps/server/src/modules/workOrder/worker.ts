/**
 * The work-order job: subscribes to `lock.heartbeat` on the event backbone (delivered
 * after the heartbeats' commit; docs/events.md) and confirms or reopens closed battery orders of those
 * locks (automatic.ts confirmBatteries), one tenant transaction per event. Only the instance whose
 * transaction stored the heartbeats (a `local` event) acts, so N instances do not act N times; a
 * lost event is harmless (the lock's next heartbeat raises another).
 */
import type { Database } from '../../db/client.js';
import { confirmBatteries } from './automatic.js';

export interface WorkOrderWorker {
  /** Resolves once every event received so far has been applied (tests). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the subscriber; it runs until close(). */
export function startWorkOrderWorker(database: Database, log: { warn(obj: object, msg: string): void }): WorkOrderWorker {
  const running = new Set<Promise<void>>();
  const stop = database.events.on('lock.heartbeat', (event, { local }) => {
    if (!local) return;
    const work = database.withTenant(event.tenantId, (tx) => confirmBatteries(tx, event.tenantId, event.lockIds))
      .then(() => undefined)
      .catch((error: Error) => log.warn({ err: error, tenantId: event.tenantId }, 'battery work orders not checked'))
      .finally(() => running.delete(work));
    running.add(work);
  });
  const drain = async () => { while (running.size > 0) await Promise.all([...running]); };
  return { drain, async close() { stop(); await drain(); } };
}
