/**
 * SQL conditions on the lock rows for the live state (online / asleep / offline) and the attention
 * filters (contract ATTENTION_KINDS; thresholds from ATTENTION_THRESHOLDS and LOW_BATTERY_PERCENT),
 * shared by the lock list (门锁信息), its export and the fleet overview (门锁概况), so a count on the
 * overview is exactly what its link lists. Reads (never writes) the command and credential tables
 * through partial indexes (migration *_lock_attention). The conditions on other tables are written as
 * `id in (uncorrelated set)`, not `exists (... where lock_id = id)`: in a count over the whole fleet
 * (overview, analysis) PostgreSQL then builds each set once and probes a hash (a "hashed SubPlan")
 * instead of running one index scan per lock (100,000 locks: ~400,000 index scans, and a plan cost
 * over jit_above_cost that added 1-2 s of JIT compilation a request; bench/RESULTS.md, analysis).
 * In a WHERE it is a semi-join, as before.
 */
import { ATTENTION_THRESHOLDS, type AttentionKind, LOW_BATTERY_PERCENT, type LiveState, SERVICE_EXPIRING_DAYS } from '@iot/contract';
import { type SQL, sql } from 'drizzle-orm';
import { locks } from '../../db/schema.js';
import { onlineSql } from './sql.js';

/** Command states counted as failed (FAILED, TIMEOUT, EXPIRED; a CANCELED command was withdrawn). */
export const FAILED_COMMAND_STATES = ['FAILED', 'TIMEOUT', 'EXPIRED'] as const;

// Qualified by hand: drizzle renders the columns of a single-table select unqualified.
const lockId = sql.raw('"locks"."id"');

/** SQL boolean: reachable now: always online, or an uplink within the last `wakeWindowMs` ms. */
export function awakeSql(wakeWindowMs: number): SQL<boolean> {
  return sql<boolean>`(${locks.alwaysOnline} or coalesce(${locks.lastUplinkAt} > now() - make_interval(secs => ${wakeWindowMs / 1000}), false))`;
}

/** SQL text: the live state (contract LIVE_STATES) for a wake window of `wakeWindowMs` ms. */
export function liveStateSql(wakeWindowMs: number): SQL<LiveState> {
  return sql<LiveState>`case when not ${onlineSql} then 'offline' when ${awakeSql(wakeWindowMs)} then 'online' else 'asleep' end`;
}

/** SQL boolean: the lock is in live state `state`. */
export function liveStateIs(state: LiveState, wakeWindowMs: number): SQL {
  if (state === 'offline') return sql`not ${onlineSql}`;
  return state === 'online' ? sql`(${onlineSql} and ${awakeSql(wakeWindowMs)})` : sql`(${onlineSql} and not ${awakeSql(wakeWindowMs)})`;
}

// Literals, not parameters: the planner matches them to the partial index commands_lock_failed.
const failedStates = sql.raw(FAILED_COMMAND_STATES.map((state) => `'${state}'`).join(', '));

/** SQL boolean: the lock's service ends within SERVICE_EXPIRING_DAYS days and has not ended (lock list `serviceExpiring`, home KPI). */
export const SERVICE_EXPIRING_SQL: SQL = sql`(${locks.serviceEndAt} >= now() and ${locks.serviceEndAt} < now() + make_interval(days => ${SERVICE_EXPIRING_DAYS}))`;

/** SQL boolean per attention kind, on the row of `locks`. */
export const ATTENTION_SQL: Record<AttentionKind, SQL> = {
  lowBattery: sql`${locks.battery} <= ${LOW_BATTERY_PERCENT}`,
  weakSignal: sql`${locks.rssi} < ${ATTENTION_THRESHOLDS.weakRssiDbm}`,
  offlineLong: sql`coalesce(${locks.lastHeartbeatAt}, ${locks.createdAt})
    < now() - make_interval(secs => ${locks.heartbeatIntervalS} * ${ATTENTION_THRESHOLDS.offlineIntervals})`,
  // Desired = the newest configPush not canceled; drift while the reported config does not contain it.
  configDrift: sql`${lockId} in (select p.lock_id from (select distinct on (c.lock_id) c.lock_id, c.data -> 'config' as desired from commands c
      where c.type = 'configPush' and c.state <> 'CANCELED' order by c.lock_id, c.id desc) p
    join locks x on x.id = p.lock_id where not (coalesce(x.config, '{}'::jsonb) @> p.desired))`,
  credentialDrift: sql`(${lockId} in (select u.lock_id from lock_users u where u.sync_state <> 'normal')
    or ${lockId} in (select k.lock_id from credentials k where k.sync_state <> 'normal'))`,
  failedCommands: sql`${lockId} in (select c.lock_id from commands c where c.state in (${failedStates})
    and c.completed_at > now() - make_interval(hours => ${ATTENTION_THRESHOLDS.failedCommandsHours}))`,
};
