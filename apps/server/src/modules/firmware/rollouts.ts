/**
 * Rollouts (upgrade rules; tables `firmware_rollouts` and `firmware_jobs`, owned by this module):
 * create (the target resolved to locks once, when the rule is made), start, pause, resume, cancel and
 * retry failed locks. Functions take the caller's tenant transaction; each action is audited by its
 * endpoint in the same transaction. Errors: 400 naming the field (unknown group or IMEIs, no lock
 * left, a bad time zone), 404 unknown rollout, 409 CONFLICT for an action its state does not allow.
 */
import { createHash } from 'node:crypto';
import { isTimeZone, type RolloutInput, type RolloutState, rolloutInput } from '@iot/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import semver from 'semver';
import type { Executor } from '../../db/client.js';
import { numberArray } from '../../db/array-literal.js';
import { firmwareJobs, firmwareRollouts, locks } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { type DeviceTargetInput, resolveDeviceTarget } from '../lockGroup/target.js';
import { packageOf } from './packages.js';

type Input = ReturnType<typeof rolloutInput.parse>;
const ACTIVE = sql`${firmwareJobs.state} not in ('UPDATED', 'FAILED', 'CANCELED')`;

/**
 * The target's usable locks (enabled, not decommissioned) through THE device-target resolver
 * (lockGroup/target.ts, docs/device-targets.md): a group and an IMEI list as they are, a device type as
 * the lock list filtered on the package's model. Listed IMEIs the data centre lacks are a 400 on
 * body.target.imeis; an unknown group a 404 on body.target.groupId.
 */
async function targetLocks(tx: Executor, tenantId: number, target: Input['target'], model: string) {
  const deviceTarget: DeviceTargetInput = target.kind === 'group' ? { groupId: target.groupId }
    : target.kind === 'imeis' ? { imeis: target.imeis } : { filter: { model } };
  const { lockIds, unknownImeis } = await resolveDeviceTarget(tx, tenantId, deviceTarget, { field: 'body.target' });
  if (unknownImeis.length > 0) {
    const list = unknownImeis.slice(0, 5).join(', ') + (unknownImeis.length > 5 ? ' …' : '');
    throw fieldError('body.target.imeis', `门锁不存在或已停用：${list}`, `Unknown or retired locks: ${list}`);
  }
  if (lockIds.length === 0) return [];
  return tx.select({ id: locks.id, imei: locks.imei, model: locks.model, firmwareVersion: locks.firmwareVersion }).from(locks)
    .where(and(sql`${locks.id} = any(${numberArray(lockIds)}::int[])`, eq(locks.enabled, true)));
}

/** A lock's reported version as semver (ZIGUANG locks report `V1.2.3`), or null when it is not one. */
export const versionOf = (text: string): string | null => semver.valid(text) ?? semver.valid(text.replace(/^[vV]/, ''));

const rank = (imei: string) => createHash('sha256').update(imei).digest('hex');

/** Checks an IANA time zone name with Intl. */
function checkTimeZone(timeZone: string): void {
  if (!isTimeZone(timeZone)) throw fieldError('body.timeZone', '未知的时区', 'Unknown time zone');
}

/**
 * Creates a rollout in state CREATED with one QUEUED job per chosen lock: the target's locks of the
 * package's device type, older than the package (or on a from-version), not busy in another rollout,
 * then the gray share (a stable subset by IMEI hash); the first `canarySize` of that order are the canary.
 */
export async function createRollout(tx: Executor, tenantId: number, body: RolloutInput, createdBy: string) {
  const input = rolloutInput.parse(body);
  checkTimeZone(input.timeZone);
  const pkg = await packageOf(tx, input.packageId);
  const candidates = (await targetLocks(tx, tenantId, input.target, pkg.model)).filter((lock) => lock.model === pkg.model);
  const busy = new Set((await tx.select({ lockId: firmwareJobs.lockId }).from(firmwareJobs)
    .where(and(ACTIVE, inArray(firmwareJobs.lockId, candidates.length ? candidates.map((l) => l.id) : [0])))).map((row) => row.lockId));
  const eligible = candidates.filter((lock) => {
    if (busy.has(lock.id)) return false;
    const current = versionOf(lock.firmwareVersion);
    if (current && semver.gte(current, pkg.version)) return false;
    return input.fromVersions.length === 0 || input.fromVersions.some((from) => from === lock.firmwareVersion || from === current);
  }).sort((a, b) => rank(a.imei).localeCompare(rank(b.imei)));
  const chosen = eligible.slice(0, Math.ceil((eligible.length * input.grayPercent) / 100));
  if (chosen.length === 0) throw fieldError('body.target', '没有需要升级的门锁（型号、版本或已在其他任务中）', 'No lock to upgrade (model, version, or busy in another rollout)');
  const [rollout] = await tx.insert(firmwareRollouts).values({
    tenantId, packageId: pkg.id, name: input.name, model: pkg.model, version: pkg.version, target: input.target, grayPercent: input.grayPercent,
    fromVersions: input.fromVersions, minBattery: input.minBattery, minRssi: input.minRssi, windowStart: input.window?.start ?? null,
    windowEnd: input.window?.end ?? null, timeZone: input.timeZone, canarySize: input.canarySize, canaryPassed: input.canarySize === 0,
    failureThresholdPct: input.failureThresholdPct, minResults: input.minResults, maxRetries: input.maxRetries, lockTimeoutS: input.lockTimeoutS,
    skipped: candidates.length - chosen.length, createdBy,
  }).returning({ id: firmwareRollouts.id });
  const id = (rollout as { id: number }).id;
  await emit(tx, 'ota.state', { tenantId, rolloutId: id, rolloutState: 'CREATED' });
  await tx.insert(firmwareJobs).values(chosen.map((lock, index) => ({
    tenantId, rolloutId: id, lockId: lock.id, canary: index < input.canarySize, fromVersion: lock.firmwareVersion,
  })));
  return { id, locks: chosen.length, skipped: candidates.length - chosen.length };
}

/** The rollout locked for update; 404 when not in the data centre. */
async function lockedRollout(tx: Executor, id: number) {
  const [row] = await tx.select({ state: firmwareRollouts.state, tenantId: firmwareRollouts.tenantId }).from(firmwareRollouts).where(eq(firmwareRollouts.id, id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  return { ...row, changed: (rolloutState: RolloutState) => emit(tx, 'ota.state', { tenantId: row.tenantId, rolloutId: id, rolloutState }) };
}

function refuse(state: string, zh: string, en: string): never {
  throw new ApiError('CONFLICT', [{ field: 'body.id', message: { 'zh-CN': `任务状态为 ${state}，${zh}`, 'en-US': `The rollout is ${state}; ${en}` } }]);
}

/** Rollout actions (contract firmwareEndpoints start … retryFailed); each 409 when the state does not allow it. */
export const rolloutActions = {
  async start(tx: Executor, id: number) {
    const { state, changed } = await lockedRollout(tx, id);
    if (state !== 'CREATED') refuse(state, '不能开始', 'it cannot be started');
    await tx.update(firmwareRollouts).set({ state: 'RUNNING', startedAt: new Date() }).where(eq(firmwareRollouts.id, id));
    await changed('RUNNING');
  },
  async pause(tx: Executor, id: number) {
    const { state, changed } = await lockedRollout(tx, id);
    if (state !== 'RUNNING') refuse(state, '不能暂停', 'it cannot be paused');
    await tx.update(firmwareRollouts).set({ state: 'PAUSED', pauseReason: 'manual' }).where(eq(firmwareRollouts.id, id));
    await changed('PAUSED');
  },
  async resume(tx: Executor, id: number) {
    const { state, changed } = await lockedRollout(tx, id);
    if (state !== 'PAUSED') refuse(state, '不能恢复', 'it cannot be resumed');
    await changed('RUNNING');
    // A failed canary resumed by an operator counts as accepted: the other locks may go.
    await tx.update(firmwareRollouts).set({ state: 'RUNNING', pauseReason: null, canaryPassed: sql`${firmwareRollouts.canaryPassed} or ${firmwareRollouts.pauseReason} = 'canary'` })
      .where(eq(firmwareRollouts.id, id));
  },
  /** What is not yet flashing stops (QUEUED, WAITING, NOTIFIED, DOWNLOADING -> CANCELED); VERIFIED/UPDATING locks finish. */
  async cancel(tx: Executor, id: number) {
    const { state, changed } = await lockedRollout(tx, id);
    if (state === 'COMPLETED' || state === 'CANCELED') refuse(state, '不能取消', 'it cannot be canceled');
    await changed('CANCELED');
    await tx.update(firmwareJobs).set({ state: 'CANCELED', waitGate: null, stateChangedAt: new Date() })
      .where(and(eq(firmwareJobs.rolloutId, id), inArray(firmwareJobs.state, ['QUEUED', 'WAITING', 'NOTIFIED', 'DOWNLOADING'])));
    await tx.update(firmwareRollouts).set({ state: 'CANCELED', finishedAt: new Date() }).where(eq(firmwareRollouts.id, id));
  },
  /** FAILED locks (not busy in another rollout meanwhile) are QUEUED again with a new attempt; the rollout runs again. */
  async retryFailed(tx: Executor, id: number) {
    const { state, changed } = await lockedRollout(tx, id);
    if (state === 'CANCELED' || state === 'CREATED') refuse(state, '不能重试', 'its locks cannot be retried');
    const retried = await tx.update(firmwareJobs).set({ state: 'QUEUED', attempt: sql`${firmwareJobs.attempt} + 1`, progress: 0, stateChangedAt: new Date() })
      .where(and(eq(firmwareJobs.rolloutId, id), eq(firmwareJobs.state, 'FAILED'),
        sql`not exists (select 1 from firmware_jobs o where o.lock_id = ${firmwareJobs.lockId} and o.id <> ${firmwareJobs.id}
          and o.state not in ('UPDATED', 'FAILED', 'CANCELED'))`))
      .returning({ id: firmwareJobs.id });
    if (retried.length === 0) throw new ApiError('CONFLICT', [{ field: 'body.id', message: { 'zh-CN': '没有可重试的失败门锁', 'en-US': 'No failed lock to retry' } }]);
    // The failures just retried no longer count against the automatic pause.
    await tx.update(firmwareRollouts).set({ state: 'RUNNING', pauseReason: null, finishedAt: null, acceptedFailures: 0 }).where(eq(firmwareRollouts.id, id));
    await changed('RUNNING');
  },
};
