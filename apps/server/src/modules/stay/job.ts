/**
 * The stays job (docs/stays.md "Lead time"): a worker that sleeps until the next due time
 * it knows (a stay's issue time = check-in - 1 h - lead time, or its 1-hour readiness check), or until
 * a stay changes (`stay.changed`) or a lock user or credential settles (`credential.sync`, for doors left busy), with
 * a safety sweep every SAFETY_SWEEP_MS. Each pass: issues the doors of stays now due, redoes stays left
 * `pending` (a woken pass only those the events named: the stay, or a door on the settled credential's
 * lock; a due pass all of them), and checks readiness 1 hour before check-in: a booked stay not ready raises `stay.notReady`
 * once. Every stay runs in its own tenant transaction; one failing stay (e.g. a lock's slots full) is
 * logged and tried again at the next pass.
 */
import { STAY_ACTIVE_STATES, STAY_ALERT_BEFORE_MS } from '@iot/contract';
import { and, eq, exists, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { SAFETY_SWEEP_MS } from '../../config.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Database } from '../../db/client.js';
import { stayDoors, stays } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { startWorkerLoop } from '../../jobs/loop.js';
import type { StartedJob } from '../../jobs/plugin.js';
import { reconcileDoors } from './doors.js';
import { stayRecord } from './views.js';

/** Who the credential operations of the job name. */
const JOB_USERNAME = 'system:stays';
const ACTIVE = [...STAY_ACTIVE_STATES];
type Log = { warn(fields: object, message?: string): void };

/**
 * What a woken pass redoes of the stays left `pending`: those named by `stay.changed` and those with a
 * door on a lock whose user or credential settled (`credential.sync`). Undefined: every pending stay (a
 * due run: a due time, the safety sweep, a resync).
 */
export interface StaysNamed {
  stays: readonly number[];
  locks: readonly number[];
}

/** The pending stays a pass redoes (see StaysNamed). */
function pendingOf(database: Database, named: StaysNamed | undefined): SQL | undefined {
  if (!named) return eq(stays.pending, true);
  if (named.stays.length === 0 && named.locks.length === 0) return undefined;
  const onLocks = named.locks.length
    ? exists(database.system.select({ one: sql`1` }).from(stayDoors).where(and(eq(stayDoors.stayId, stays.id), inArray(stayDoors.lockId, [...named.locks]))))
    : undefined;
  return and(eq(stays.pending, true), or(...(named.stays.length ? [inArray(stays.id, [...named.stays])] : []), ...(onLocks ? [onLocks] : [])));
}

/**
 * One pass at `now` (ms): the stays now due are issued, the pending ones (all, or those `named`) redone,
 * the 1-hour checks made; returns ms until the next due time (undefined: none known).
 */
export async function runStays(database: Database, box: SecretBox, log: Log, now = Date.now(), named?: StaysNamed): Promise<number | undefined> {
  const at = new Date(now);
  const pending = pendingOf(database, named);
  const work = await database.system.select({ id: stays.id, tenantId: stays.tenantId }).from(stays).where(and(inArray(stays.state, ACTIVE), or(
    ...(pending ? [pending] : []), and(isNull(stays.issuedAt), lte(stays.issueDueAt, at)),
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
  /** Stays and locks named by events since the last pass. */
  let named = { stays: new Set<number>(), locks: new Set<number>() };
  const loop = startWorkerLoop({
    name: 'stays', safetyMs: SAFETY_SWEEP_MS, minDelayMs: 1000, log,
    run: (due) => {
      const taken = named;
      named = { stays: new Set(), locks: new Set() };
      return runStays(database, box, log, Date.now(), due ? undefined : { stays: [...taken.stays], locks: [...taken.locks] });
    },
  });
  const stops = [
    database.events.on('stay.changed', ({ stayId }) => {
      named.stays.add(stayId);
      loop.wake();
    }),
    // A lock user settling (a door left busy), or any credential settling: a card left for later waits for its previous holder's delete.
    database.events.on('credential.sync', ({ lockId, state }) => {
      if (['adding', 'modifying', 'deleting'].includes(state)) return;
      named.locks.add(lockId);
      loop.wake();
    }),
    database.events.onResync(() => loop.dueIn(0)),
  ];
  return {
    async stop() {
      for (const stop of stops) stop();
      await loop.close();
    },
  };
}
