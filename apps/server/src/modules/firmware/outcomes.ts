/**
 * Results of OTA jobs and what they do to their rollout (owner connection, any server instance): a
 * failure is retried while attempts remain (QUEUED again, reason kept) else FAILED; the per-lock
 * timeout; and the rollout review: canary verdict, automatic pause past the failure threshold,
 * completion. Every change is a conditional update, so instances running these at once agree.
 */
import type { RolloutState } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { emitAll } from '../../events/emit.js';

const ACTIVE_STATES = sql`('QUEUED', 'WAITING', 'NOTIFIED', 'DOWNLOADING', 'VERIFIED', 'UPDATING')`;

/**
 * Fails jobs `ids` (still unfinished) for `reason`: QUEUED with the next attempt while attempts remain
 * and the rollout is running or paused, else FAILED. Returns the rollouts touched.
 */
export async function failJobs(db: Executor, ids: readonly number[], reason: string): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = rowsOf<{ rollout_id: number }>(await db.execute(sql`
    update firmware_jobs j set
      state = case when j.attempt <= r.max_retries and r.state in ('RUNNING', 'PAUSED') then 'QUEUED' else 'FAILED' end,
      attempt = case when j.attempt <= r.max_retries and r.state in ('RUNNING', 'PAUSED') then j.attempt + 1 else j.attempt end,
      reason = ${reason}, wait_gate = null, state_changed_at = now(), progress_at = now()
    from firmware_rollouts r
    where r.id = j.rollout_id and j.id in ${ids} and j.state in ${ACTIVE_STATES}
    returning j.rollout_id`));
  return [...new Set(rows.map((row) => row.rollout_id))];
}

/** Jobs without progress for their rollout's lock_timeout_s (NOTIFIED … UPDATING) fail with `timeout`. */
export async function timeOutJobs(db: Executor, limit = 500): Promise<number[]> {
  const late = rowsOf<{ id: number }>(await db.execute(sql`
    select j.id from firmware_jobs j join firmware_rollouts r on r.id = j.rollout_id
    where j.state in ('NOTIFIED', 'DOWNLOADING', 'VERIFIED', 'UPDATING')
      and j.progress_at < now() - r.lock_timeout_s * interval '1 second'
    limit ${limit}`));
  return failJobs(db, late.map((row) => row.id), 'timeout');
}

/** Emits `ota.state` (docs/events.md) for rollout rows returned as `id, tenant_id, state`. */
function rolloutChanged(db: Executor, result: unknown): Promise<void> {
  return emitAll(db, rowsOf<{ id: number; tenant_id: number; state: RolloutState }>(result).map((row) => ({
    name: 'ota.state', payload: { tenantId: row.tenant_id, rolloutId: row.id, rolloutState: row.state },
  })));
}

interface Tally {
  id: number; canary_passed: boolean; failure_threshold_pct: number; min_results: number; accepted_failures: number;
  updated: number; failed: number; active: number; canary_active: number; canary_updated: number; canary_failed: number;
}

const over = (failed: number, results: number, thresholdPct: number) => results > 0 && failed * 100 > thresholdPct * results;

/**
 * Reviews RUNNING rollouts (`ids`, or all): a canary whose locks all have a result passes, or pauses
 * the rollout (reason `canary`) when its failure rate exceeds the threshold; at least `min_results`
 * results with the failure rate over the threshold (and a failure since the last pause) pause it
 * (`failureRate`); otherwise no unfinished lock left completes it.
 */
export async function reviewRollouts(db: Executor, ids?: readonly number[]): Promise<void> {
  if (ids && ids.length === 0) return;
  const tallies = rowsOf<Tally>(await db.execute(sql`
    select r.id, r.canary_passed, r.failure_threshold_pct, r.min_results, r.accepted_failures,
      count(*) filter (where j.state = 'UPDATED')::int as updated,
      count(*) filter (where j.state = 'FAILED')::int as failed,
      count(*) filter (where j.state in ${ACTIVE_STATES})::int as active,
      count(*) filter (where j.canary and j.state in ${ACTIVE_STATES})::int as canary_active,
      count(*) filter (where j.canary and j.state = 'UPDATED')::int as canary_updated,
      count(*) filter (where j.canary and j.state = 'FAILED')::int as canary_failed
    from firmware_rollouts r join firmware_jobs j on j.rollout_id = r.id
    where r.state = 'RUNNING' ${ids ? sql`and r.id in ${ids}` : sql``}
    group by r.id`));
  for (const t of tallies) {
    if (!t.canary_passed && t.canary_active === 0) {
      if (over(t.canary_failed, t.canary_failed + t.canary_updated, t.failure_threshold_pct)) {
        await rolloutChanged(db, await db.execute(sql`update firmware_rollouts set state = 'PAUSED', pause_reason = 'canary', accepted_failures = ${t.failed}
          where id = ${t.id} and state = 'RUNNING' returning id, tenant_id, state`));
        continue;
      }
      await db.execute(sql`update firmware_rollouts set canary_passed = true where id = ${t.id} and state = 'RUNNING'`);
    }
    // Before completion: a rollout whose last locks all failed is paused (and says why), not "completed".
    if (t.failed > t.accepted_failures && t.updated + t.failed >= t.min_results && over(t.failed, t.updated + t.failed, t.failure_threshold_pct)) {
      await rolloutChanged(db, await db.execute(sql`update firmware_rollouts set state = 'PAUSED', pause_reason = 'failureRate', accepted_failures = ${t.failed}
        where id = ${t.id} and state = 'RUNNING' returning id, tenant_id, state`));
    } else if (t.active === 0) {
      await rolloutChanged(db, await db.execute(sql`update firmware_rollouts set state = 'COMPLETED', finished_at = now()
        where id = ${t.id} and state = 'RUNNING' returning id, tenant_id, state`));
    }
  }
}
