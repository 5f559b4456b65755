/**
 * What a lock's heartbeat means for its OTA job (owner connection; called after the heartbeat's
 * commit with the lock's stored readings): its firmwareVersion decides UPDATED (the target version)
 * or, after UPDATING, a failure (`oldVersion`); a QUEUED or WAITING lock of a running rollout (canary
 * first) has its gates checked: WAITING with the closed gate, or claimed NOTIFIED and returned to be
 * notified. A NOTIFIED lock that beats again is notified again (the first notice may have been lost in
 * a crash); "again" is by seq (status_seq keeps the heartbeat a notice answered), not by commit time:
 * a heartbeat redelivered to another instance is committed there as a duplicate and is no news. Claims
 * are conditional updates: two instances never notify one job twice for one heartbeat.
 */
import type { OtaGate } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { closedGate } from './gates.js';
import { failJobs } from './outcomes.js';

/** An otaNotify to send. */
export interface Notice {
  jobId: number;
  imei: string;
  version: string;
  size: number;
  sha256: string;
}

interface Row {
  id: number; lock_id: number; state: string; wait_gate: string | null; canary: boolean; rollout_id: number; status_seq: number | null;
  rollout_state: string; canary_passed: boolean; min_battery: number; min_rssi: number; window_start: string | null; window_end: string | null;
  time_zone: string; version: string; size_bytes: number | null; sha256: string | null; imei: string; battery: number | null; rssi: number | null;
  firmware_version: string;
}

/** Outcome of reviewLocks: notices to send and the rollouts whose tallies changed. */
export interface LockReview {
  notices: Notice[];
  rollouts: number[];
}

/**
 * Reviews the unfinished jobs of the locks in `beats` (lock id -> seq of its newest committed heartbeat)
 * against their locks' stored readings; see the module comment.
 */
export async function reviewLocks(db: Executor, beats: ReadonlyMap<number, number>, now = new Date()): Promise<LockReview> {
  const review: LockReview = { notices: [], rollouts: [] };
  const lockIds = [...beats.keys()];
  if (lockIds.length === 0) return review;
  const rows = rowsOf<Row>(await db.execute(sql`
    select j.id, j.lock_id, j.status_seq, j.state, j.wait_gate, j.canary, j.rollout_id, r.state as rollout_state, r.canary_passed,
      r.min_battery, r.min_rssi, r.window_start, r.window_end, r.time_zone, r.version, p.size_bytes, p.sha256,
      l.imei, l.battery, l.rssi, l.firmware_version
    from firmware_jobs j join firmware_rollouts r on r.id = j.rollout_id join locks l on l.id = j.lock_id
      left join firmware_packages p on p.id = r.package_id
    where j.lock_id in ${lockIds} and j.state not in ('UPDATED', 'FAILED', 'CANCELED')`));
  const oldVersion: number[] = [];
  for (const row of rows) {
    const beat = beats.get(row.lock_id) ?? -1;
    if (row.firmware_version === row.version) {
      await db.execute(sql`update firmware_jobs set state = 'UPDATED', progress = 100, wait_gate = null, reason = null, state_changed_at = now(), progress_at = now()
        where id = ${row.id} and state = ${row.state}`);
      review.rollouts.push(row.rollout_id);
    } else if (row.state === 'UPDATING' && beat > (row.status_seq ?? Number.MAX_SAFE_INTEGER)) {
      // A heartbeat sent after the UPDATING report (by seq, not by commit time: both may share a commit).
      oldVersion.push(row.id);
    } else if ((row.state === 'QUEUED' || row.state === 'WAITING') && row.rollout_state === 'RUNNING' && (row.canary || row.canary_passed) && row.sha256) {
      await gate(db, row, beat, now, review);
    } else if (row.state === 'NOTIFIED' && beat > (row.status_seq ?? -1) && row.rollout_state !== 'CANCELED' && row.sha256) {
      const claimed = rowsOf(await db.execute(sql`update firmware_jobs set status_seq = ${beat}, state_changed_at = now(), progress_at = now()
        where id = ${row.id} and state = 'NOTIFIED' and status_seq is not distinct from ${row.status_seq} returning id`));
      if (claimed.length > 0) review.notices.push(noticeOf(row));
    }
  }
  review.rollouts.push(...(await failJobs(db, oldVersion, 'oldVersion')));
  review.rollouts = [...new Set(review.rollouts)];
  return review;
}

function noticeOf(row: Row): Notice {
  return { jobId: row.id, imei: row.imei, version: row.version, size: row.size_bytes as number, sha256: row.sha256 as string };
}

/** Checks the gates for a QUEUED / WAITING job at heartbeat `beat` (seq): WAITING, or claimed NOTIFIED (answering `beat`). */
async function gate(db: Executor, row: Row, beat: number, now: Date, review: LockReview): Promise<void> {
  const closed: OtaGate | null = closedGate({
    battery: row.battery, rssi: row.rssi, minBattery: row.min_battery, minRssi: row.min_rssi,
    windowStart: row.window_start, windowEnd: row.window_end, timeZone: row.time_zone,
  }, now);
  if (closed) {
    if (row.state !== 'WAITING' || row.wait_gate !== closed) {
      await db.execute(sql`update firmware_jobs set state = 'WAITING', wait_gate = ${closed}, state_changed_at = now()
        where id = ${row.id} and state in ('QUEUED', 'WAITING')`);
    }
    return;
  }
  const claimed = rowsOf(await db.execute(sql`update firmware_jobs set state = 'NOTIFIED', wait_gate = null, status_seq = ${beat}, state_changed_at = now(), progress_at = now()
    where id = ${row.id} and state = ${row.state} returning id`));
  if (claimed.length > 0) review.notices.push(noticeOf(row));
}
