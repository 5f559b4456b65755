/**
 * The lock side of the transfer as stored state (docs/protocol.md "Firmware over the air"):
 * - in the uplinks' transaction (gateway uplink handlers; redeliveries never reach them): an
 *   otaChunkRequest records the requested offset and seq (NOTIFIED -> DOWNLOADING, progress %); an
 *   otaStatus moves the job to VERIFIED or UPDATING, or fails it with the lock's reason;
 * - after the commit (claimChunks): the chunk answering the newest request of each lock is claimed by a
 *   conditional update of served_seq, so one instance sends it, once.
 */
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { failJobs } from './outcomes.js';

interface Uplink<T> { lockId: number; message: { seq: number; data: T } }
type ChunkRequest = Uplink<{ jobId: number; offset: number }>;
type Status = Uplink<{ jobId: number; state: 'VERIFIED' | 'UPDATING' | 'FAILED'; reason?: string }>;

/** Records chunk requests (one statement for the batch; a request of a job not NOTIFIED/DOWNLOADING is ignored). */
export async function applyChunkRequests(tx: Tx, uplinks: readonly ChunkRequest[]): Promise<void> {
  if (uplinks.length === 0) return;
  const values = sql.join(uplinks.map((u) => sql`(${u.message.data.jobId}::int, ${u.lockId}::int, ${u.message.seq}::int, ${u.message.data.offset}::int)`), sql`, `);
  await tx.execute(sql`
    update firmware_jobs j set state = 'DOWNLOADING', request_seq = v.seq, request_offset = v.off,
      progress = least(99, (v.off::bigint * 100 / greatest(p.size_bytes, 1))::int), progress_at = now(),
      state_changed_at = case when j.state = 'NOTIFIED' then now() else j.state_changed_at end
    from (values ${values}) as v(job, lock, seq, off), firmware_rollouts r, firmware_packages p
    where j.id = v.job and j.lock_id = v.lock and r.id = j.rollout_id and p.id = r.package_id
      and j.state in ('NOTIFIED', 'DOWNLOADING') and (j.request_seq is null or j.request_seq < v.seq)`);
}

/** Applies the locks' status reports; returns the rollouts with a new failure (for the review). */
export async function applyStatuses(tx: Tx, uplinks: readonly Status[]): Promise<number[]> {
  const rollouts: number[] = [];
  for (const { lockId, message: { seq, data } } of uplinks) {
    if (data.state === 'FAILED') {
      const [job] = rowsOf<{ id: number }>(await tx.execute(sql`select id from firmware_jobs where id = ${data.jobId} and lock_id = ${lockId}`));
      if (job) rollouts.push(...(await failJobs(tx, [job.id], data.reason ?? 'other')));
    } else {
      const from = data.state === 'VERIFIED' ? sql`('NOTIFIED', 'DOWNLOADING')` : sql`('DOWNLOADING', 'VERIFIED')`;
      await tx.execute(sql`update firmware_jobs set state = ${data.state}, progress = 100, status_seq = ${seq}, state_changed_at = now(), progress_at = now()
        where id = ${data.jobId} and lock_id = ${lockId} and state in ${from}`);
    }
  }
  return [...new Set(rollouts)];
}

/** A chunk to send: bytes [offset, offset + OTA_CHUNK_BYTES) of the package in `storageKey`. */
export interface ChunkClaim {
  jobId: number;
  imei: string;
  offset: number;
  storageKey: string;
  size: number;
}

/** Claims the unanswered newest chunk request of each of `lockIds` (see the module comment). */
export async function claimChunks(db: Executor, lockIds: readonly number[]): Promise<ChunkClaim[]> {
  if (lockIds.length === 0) return [];
  const rows = rowsOf<{ id: number; imei: string; request_offset: number; storage_key: string; size_bytes: number }>(await db.execute(sql`
    update firmware_jobs j set served_seq = j.request_seq
    from firmware_rollouts r, firmware_packages p, locks l
    where r.id = j.rollout_id and p.id = r.package_id and l.id = j.lock_id and j.lock_id in ${lockIds}
      and j.state = 'DOWNLOADING' and j.request_seq is not null and j.request_seq > coalesce(j.served_seq, -1)
    returning j.id, l.imei, j.request_offset, p.storage_key, p.size_bytes`));
  return rows.map((row) => ({ jobId: row.id, imei: row.imei, offset: row.request_offset, storageKey: row.storage_key, size: row.size_bytes }));
}

/** Of `jobIds` (asked for by their locks), those that are over or unknown: the lock should drop them (otaAbort). */
export async function abandonedJobs(db: Executor, requests: readonly { lockId: number; jobId: number }[]): Promise<Map<number, 'canceled' | 'finished' | 'unknown'>> {
  const verdicts = new Map<number, 'canceled' | 'finished' | 'unknown'>();
  if (requests.length === 0) return verdicts;
  const rows = rowsOf<{ id: number; lock_id: number; state: string }>(await db.execute(sql`
    select id, lock_id, state from firmware_jobs where id in ${requests.map((r) => r.jobId)}`));
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const { lockId, jobId } of requests) {
    const row = byId.get(jobId);
    if (!row || row.lock_id !== lockId) verdicts.set(jobId, 'unknown');
    else if (row.state === 'CANCELED') verdicts.set(jobId, 'canceled');
    else if (row.state === 'UPDATED' || row.state === 'FAILED') verdicts.set(jobId, 'finished');
  }
  return verdicts;
}
