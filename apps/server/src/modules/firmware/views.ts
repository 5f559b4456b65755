/**
 * Reads of the firmware module: rollouts with their per-state counts, one rollout with its failures,
 * its locks, and a lock's OTA history. Tenant transaction (or tenant reader) of the caller.
 */
import type { LockOtaHistoryRecord, OtaJobRecord, Page, RolloutRecord } from '@iot/contract';
import { and, count, desc, eq, ilike, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { firmwareJobs, firmwarePackages, firmwareRollouts, locks } from '../../db/schema.js';
import { containsPattern, iso } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';

type RolloutRow = typeof firmwareRollouts.$inferSelect;

function recordOf(row: RolloutRow, counts: Record<string, number>): RolloutRecord {
  return {
    id: row.id, name: row.name, packageId: row.packageId, model: row.model, version: row.version, target: row.target as Record<string, unknown>,
    grayPercent: row.grayPercent, fromVersions: row.fromVersions, minBattery: row.minBattery, minRssi: row.minRssi,
    window: row.windowStart && row.windowEnd ? { start: row.windowStart, end: row.windowEnd } : null, timeZone: row.timeZone,
    canarySize: row.canarySize, canaryPassed: row.canaryPassed, failureThresholdPct: row.failureThresholdPct, minResults: row.minResults,
    maxRetries: row.maxRetries, lockTimeoutS: row.lockTimeoutS, state: row.state as RolloutRecord['state'], pauseReason: row.pauseReason,
    counts, total: Object.values(counts).reduce((sum, n) => sum + n, 0), createdBy: row.createdBy, createdAt: iso(row.createdAt),
    startedAt: iso(row.startedAt), finishedAt: iso(row.finishedAt),
  };
}

/** Jobs per state of each rollout in `ids`. */
async function countsOf(tx: Executor, ids: number[]): Promise<Map<number, Record<string, number>>> {
  const byRollout = new Map<number, Record<string, number>>(ids.map((id) => [id, {}]));
  if (ids.length === 0) return byRollout;
  const rows = await tx.select({ rolloutId: firmwareJobs.rolloutId, state: firmwareJobs.state, n: count() }).from(firmwareJobs)
    .where(sql`${firmwareJobs.rolloutId} in ${ids}`).groupBy(firmwareJobs.rolloutId, firmwareJobs.state);
  for (const row of rows) (byRollout.get(row.rolloutId) as Record<string, number>)[row.state] = row.n;
  return byRollout;
}

/** A page of rollouts, newest first. */
export async function listRollouts(tx: Executor, q: { state?: string; current: number; size: number }): Promise<Page<RolloutRecord>> {
  const where = q.state ? eq(firmwareRollouts.state, q.state) : undefined;
  const [total] = await tx.select({ n: count() }).from(firmwareRollouts).where(where);
  const rows = await tx.select().from(firmwareRollouts).where(where).orderBy(desc(firmwareRollouts.id)).limit(q.size).offset((q.current - 1) * q.size);
  const counts = await countsOf(tx, rows.map((row) => row.id));
  return { records: rows.map((row) => recordOf(row, counts.get(row.id) ?? {})), total: total?.n ?? 0, current: q.current, size: q.size };
}

/** One rollout with counts, failures per reason and the number of target locks left out; 404 when unknown. */
export async function rolloutDetail(tx: Executor, id: number) {
  const [row] = await tx.select().from(firmwareRollouts).where(eq(firmwareRollouts.id, id));
  if (!row) throw new ApiError('NOT_FOUND');
  const counts = await countsOf(tx, [id]);
  const failures = await tx.select({ reason: sql<string>`coalesce(${firmwareJobs.reason}, 'other')`, count: count() }).from(firmwareJobs)
    .where(and(eq(firmwareJobs.rolloutId, id), eq(firmwareJobs.state, 'FAILED'))).groupBy(sql`1`).orderBy(desc(count()));
  return { ...recordOf(row, counts.get(id) ?? {}), failures, skipped: row.skipped };
}

/** A page of a rollout's locks (canary first, then by IMEI). */
export async function rolloutLocks(tx: Executor, q: { id: number; state?: string; imei?: string; current: number; size: number }): Promise<Page<OtaJobRecord>> {
  const conditions: SQL[] = [eq(firmwareJobs.rolloutId, q.id)];
  if (q.state) conditions.push(eq(firmwareJobs.state, q.state));
  if (q.imei) conditions.push(ilike(locks.imei, containsPattern(q.imei)));
  const where = and(...conditions);
  const [total] = await tx.select({ n: count() }).from(firmwareJobs).innerJoin(locks, eq(locks.id, firmwareJobs.lockId)).where(where);
  const rows = await tx.select({ job: firmwareJobs, imei: locks.imei, currentVersion: locks.firmwareVersion }).from(firmwareJobs)
    .innerJoin(locks, eq(locks.id, firmwareJobs.lockId)).where(where)
    .orderBy(desc(firmwareJobs.canary), locks.imei).limit(q.size).offset((q.current - 1) * q.size);
  const records = rows.map(({ job, imei, currentVersion }) => ({
    lockId: job.lockId, imei, state: job.state as OtaJobRecord['state'], waitGate: job.waitGate as OtaJobRecord['waitGate'], reason: job.reason,
    progress: job.progress, attempt: job.attempt, canary: job.canary, fromVersion: job.fromVersion, currentVersion, updatedAt: iso(job.stateChangedAt),
  }));
  return { records, total: total?.n ?? 0, current: q.current, size: q.size };
}

/** Every rollout the lock registered as `imei` took part in, newest first, at most 100 (empty for an unknown IMEI). */
export async function lockOtaHistory(tx: Executor, imei: string): Promise<LockOtaHistoryRecord[]> {
  const rows = await tx.select({
    job: firmwareJobs, rollout: { id: firmwareRollouts.id, name: firmwareRollouts.name, model: firmwareRollouts.model, version: firmwareRollouts.version },
    fileName: firmwarePackages.fileName,
  })
    .from(firmwareJobs).innerJoin(locks, eq(locks.id, firmwareJobs.lockId)).innerJoin(firmwareRollouts, eq(firmwareRollouts.id, firmwareJobs.rolloutId))
    .leftJoin(firmwarePackages, eq(firmwarePackages.id, firmwareRollouts.packageId))
    .where(and(eq(locks.imei, imei), isNull(locks.imeiReleasedAt))).orderBy(desc(firmwareJobs.id)).limit(100);
  return rows.map(({ job, rollout, fileName }) => ({
    rolloutId: rollout.id, rolloutName: rollout.name, model: rollout.model, fileName, fromVersion: job.fromVersion, version: rollout.version,
    state: job.state as OtaJobRecord['state'], waitGate: job.waitGate as LockOtaHistoryRecord['waitGate'], reason: job.reason,
    progress: job.progress, attempt: job.attempt, updatedAt: iso(job.stateChangedAt),
  }));
}
