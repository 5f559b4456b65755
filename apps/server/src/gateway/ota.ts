/**
 * The OTA transfer over the gateway's DownlinkTransport (docs/protocol.md "Firmware over the air"),
 * driven by committed uplinks and a sweep; every decision is a conditional update in modules/firmware,
 * so any number of instances may run it on one database:
 * - a committed heartbeat: the lock's job is reviewed (UPDATED / oldVersion / gates / otaNotify);
 * - a committed otaChunkRequest: the claimed chunk is read from the package store and sent as otaChunk,
 *   or otaAbort for a job that is over; an otaStatus: its rollout is reviewed;
 * - at the earliest job timeout it knows, and at a safety sweep every `sweepMs` (default 5 min):
 *   per-lock timeouts, then the review of running rollouts (canary, pause, completion); an `ota.state`
 *   event (an operator's start, resume, retry on any instance) reviews them too. It sleeps otherwise.
 * Nothing is kept in memory but a small cache of package bytes and whether any job may be unfinished
 * (a due pass that finds none lets heartbeats pass without a query until an `ota.state` event or an
 * OTA uplink says otherwise): a restart resumes from the database.
 */
import { protocol } from '@iot/contract';
import type { Database } from '../db/client.js';
import { reviewLocks } from '../modules/firmware/engine.js';
import { reviewRollouts, timeOutJobs } from '../modules/firmware/outcomes.js';
import type { PackageStore } from '../modules/firmware/storage.js';
import { abandonedJobs, type ChunkClaim, claimChunks } from '../modules/firmware/transfer.js';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/rows.js';
import { SAFETY_SWEEP_MS } from '../config.js';
import { type NextDue, startWorkerLoop } from '../jobs/loop.js';
import type { GatewayLog } from './log.js';
import type { DownlinkTransport } from './transport.js';
import type { UplinkRecord } from './uplink-store.js';

export interface OtaTransfer {
  /** For ingest's onCommitted. */
  onCommitted(records: readonly UplinkRecord[]): void;
  /** Runs the pending work and a sweep now; resolves when done (tests). */
  tick(): Promise<void>;
  close(): Promise<void>;
}

export interface OtaStats { notices: number; chunks: number; aborts: number }

/** Starts the transfer (sweep timer until close()). */
export function startOtaTransfer(options: { database: Database; transport: DownlinkTransport; store: PackageStore; log: GatewayLog; sweepMs?: number }): OtaTransfer & { stats(): OtaStats } {
  const { database, transport, store, log } = options;
  const db = database.system;
  const stats: OtaStats = { notices: 0, chunks: 0, aborts: 0 };
  const beats = new Map<number, number>(); // lock id -> seq of its newest committed heartbeat
  const requests = new Map<number, { lockId: number; jobId: number; imei: string }>();
  let reviewAll = false;
  let closed = false;
  /** False only while the last due pass saw no unfinished job and nothing since announced one. */
  let openJobsMayExist = true;
  let announced = 0;
  const jobsAnnounced = () => { openJobsMayExist = true; announced++; };
  const cache = new Map<string, Buffer>();

  async function bytesOf(key: string): Promise<Buffer> {
    let bytes = cache.get(key);
    if (!bytes) {
      bytes = await store.read(key, 0, protocol.OTA_MAX_PACKAGE_BYTES);
      cache.set(key, bytes);
      if (cache.size > 4) cache.delete(cache.keys().next().value as string);
    }
    return bytes;
  }

  const send = (imei: string, msgId: string, type: protocol.OtaDownlinkType, data: Record<string, unknown>) =>
    transport.publish(imei, { msgId, type, ts: Date.now(), data }).catch((error: unknown) => log.warn({ imei, msgId, err: error }, 'ota downlink not published'));

  async function sendChunk(claim: ChunkClaim): Promise<void> {
    const bytes = await bytesOf(claim.storageKey);
    const chunk = bytes.subarray(claim.offset, claim.offset + protocol.OTA_CHUNK_BYTES);
    stats.chunks++;
    await send(claim.imei, `ota-${claim.jobId}-c${claim.offset}`, 'otaChunk', {
      jobId: claim.jobId, offset: claim.offset, data: chunk.toString('base64'), last: claim.offset + chunk.length >= claim.size,
    });
  }

  async function pass(due: boolean): Promise<void> {
    const beatLocks = new Map(beats);
    beats.clear();
    const asked = [...requests.values()];
    requests.clear();
    const review = openJobsMayExist ? await reviewLocks(db, beatLocks) : { notices: [], rollouts: [] };
    for (const notice of review.notices) {
      stats.notices++;
      await send(notice.imei, `ota-${notice.jobId}-n${Date.now()}`, 'otaNotify', {
        jobId: notice.jobId, version: notice.version, size: notice.size, sha256: notice.sha256, chunkSize: protocol.OTA_CHUNK_BYTES,
      });
    }
    const claims = await claimChunks(db, [...new Set(asked.map((r) => r.lockId))]);
    await Promise.all(claims.map(sendChunk));
    const served = new Set(claims.map((claim) => claim.jobId));
    const verdicts = await abandonedJobs(db, asked.filter((r) => !served.has(r.jobId)));
    for (const r of asked) {
      const reason = verdicts.get(r.jobId);
      if (!reason) continue;
      stats.aborts++;
      await send(r.imei, `ota-${r.jobId}-a${Date.now()}`, 'otaAbort', { jobId: r.jobId, reason });
    }
    if (due) {
      await timeOutJobs(db);
      reviewAll = true;
    }
    if (reviewAll) {
      reviewAll = false;
      await reviewRollouts(db);
    } else if (review.rollouts.length > 0) {
      await reviewRollouts(db, review.rollouts);
    }
  }

  /** ms until the earliest timeout of a job in transfer; undefined when none. Clears openJobsMayExist when no job is unfinished. */
  async function nextDueMs(): Promise<NextDue> {
    const before = announced;
    const [row] = rowsOf<{ ms: number | null; open: boolean }>(await db.execute(sql`
      select extract(epoch from min(j.progress_at + r.lock_timeout_s * interval '1 second')
          filter (where j.state in ('NOTIFIED', 'DOWNLOADING', 'VERIFIED', 'UPDATING')) - now()) * 1000 as ms,
        count(*) > 0 as open
      from firmware_jobs j join firmware_rollouts r on r.id = j.rollout_id
      where j.state not in ('UPDATED', 'FAILED', 'CANCELED')`));
    if (row && !row.open && announced === before) openJobsMayExist = false;
    return row?.ms == null ? undefined : Number(row.ms);
  }

  const loop = startWorkerLoop({
    name: 'ota transfer', safetyMs: options.sweepMs ?? SAFETY_SWEEP_MS, log,
    async run(due) {
      await pass(due);
      while (!closed && (beats.size > 0 || requests.size > 0 || reviewAll)) await pass(false);
      return due ? nextDueMs() : undefined;
    },
  });
  const stops = [
    database.events.on('ota.state', () => { reviewAll = true; jobsAnnounced(); loop.wake(); }),
    database.events.onResync(() => { void loop.sweepNow(); }),
  ];

  return {
    onCommitted(records) {
      for (const { lockId, imei, message } of records) {
        if (message.type === 'heartbeat') beats.set(lockId, Math.max(beats.get(lockId) ?? -1, message.seq));
        else if (message.type === 'otaChunkRequest') { requests.set(lockId, { lockId, jobId: message.data.jobId, imei }); jobsAnnounced(); }
        else if (message.type === 'otaStatus') { reviewAll = true; jobsAnnounced(); }
      }
      if (beats.size > 0 || requests.size > 0 || reviewAll) loop.wake();
    },
    tick: () => loop.sweepNow(),
    stats: () => ({ ...stats }),
    async close() {
      closed = true;
      for (const stop of stops) stop();
      await loop.close();
    },
  };
}
