/**
 * The stays job (issue #27; docs/stays.md "Lead time"): a worker that sleeps until the next due time
 * it knows (a stay's issue time = check-in - 1 h - lead time, or its 1-hour readiness check), or until
 * a stay changes (`stay.changed`) or a lock user settles (`credential.sync`, for doors left busy), with
 * a safety sweep every SAFETY_SWEEP_MS. Each pass: issues the doors of stays now due, redoes stays left
 * `pending`, and checks readiness 1 hour before check-in: a booked stay not ready raises `stay.notReady`
 * once. Every stay runs in its own tenant transaction; one failing stay (e.g. a lock's slots full) is
 * logged and tried again at the next pass.
 */
import { STAY_ACTIVE_STATES, STAY_ALERT_BEFORE_MS } from '@iot/contract';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { SAFETY_SWEEP_MS } from '../../config.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { stays } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import type { StartedJob } from '../../jobs/plugin.js';
import { reconcileDoors } from './doors.js';
import { stayRecord } from './views.js';

/** Who the credential operations of the job name. */
const JOB_USERNAME = 'system:stays';
const ACTIVE = [...STAY_ACTIVE_STATES];
type Log = { warn(fields: object, message?: string): void };

/** One pass at `now` (ms); returns ms until the next due time (undefined: none known). */
export async function runStays(database: Database, box: SecretBox, log: Log, now = Date.now()): Promise<number | undefined> {
  const at = new Date(now);
  const work = await database.system.select({ id: stays.id, tenantId: stays.tenantId }).from(stays).where(and(inArray(stays.state, ACTIVE), or(
    eq(stays.pending, true), and(isNull(stays.issuedAt), lte(stays.issueDueAt, at)),
  ))).orderBy(stays.issueDueAt);
  for (const stay of work) {
    await database.withTenant(stay.tenantId, (tx) => reconcileDoors(tx, { tenantId: stay.tenantId, username: JOB_USERNAME, box }, stay.id, now))
      .catch((error) => log.warn({ err: error, stayId: stay.id }, 'stay doors not issued; tried again at the next pass'));
  }
  const alertAt = new Date(now + STAY_ALERT_BEFORE_MS);
  const checks = await database.system.select({ id: stays.id, tenantId: stays.tenantId }).from(stays)
    .where(and(eq(stays.state, 'BOOKED'), isNull(stays.alertedAt), lte(stays.checkInAt, alertAt), sql`${stays.checkInAt} > ${at}`));
  for (const stay of checks) {
    await database.withTenant(stay.tenantId, async (tx) => {
      const record = await stayRecord(tx, stay.id);
      if (record.readiness !== 'ready') {
        await emit(tx, 'stay.notReady', { tenantId: stay.tenantId, stayId: stay.id, checkInAt: record.checkInAt, queuedDoors: record.queuedDoors, failedDoors: record.failedDoors });
      }
      await tx.update(stays).set({ alertedAt: at }).where(eq(stays.id, stay.id));
    }).catch((error) => log.warn({ err: error, stayId: stay.id }, 'stay readiness check failed'));
  }
  const [next] = await database.system.select({
    issue: sql<string | null>`min(${stays.issueDueAt}) filter (where ${stays.issuedAt} is null and ${stays.issueDueAt} > ${at})`,
    check: sql<string | null>`min(${stays.checkInAt}) filter (where ${stays.state} = 'BOOKED' and ${stays.alertedAt} is null and ${stays.checkInAt} > ${alertAt})`,
  }).from(stays).where(inArray(stays.state, ACTIVE));
  const dues = [
    ...(next?.issue ? [new Date(next.issue).getTime() - now] : []),
    ...(next?.check ? [new Date(next.check).getTime() - STAY_ALERT_BEFORE_MS - now] : []),
  ];
  return dues.length ? Math.max(0, Math.min(...dues)) : undefined;
}

/** Starts the job's loop on `database`. */
export function startStaysJob(database: Database, box: SecretBox, log: Log): StartedJob {
  const loop = startWorkerLoop({ name: 'stays', safetyMs: SAFETY_SWEEP_MS, minDelayMs: 1000, log, run: () => runStays(database, box, log) });
  const stops = [
    database.events.on('stay.changed', () => loop.wake()),
    database.events.on('credential.sync', ({ subject, state }) => { if (subject === 'user' && !['adding', 'modifying', 'deleting'].includes(state)) loop.wake(); }),
    database.events.onResync(() => loop.wake()),
  ];
  return {
    async stop() {
      for (const stop of stops) stop();
      await loop.close();
    },
  };
}
