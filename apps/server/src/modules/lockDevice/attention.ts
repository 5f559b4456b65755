/**
 * SQL conditions on the lock rows for the live state (online / asleep / offline) and the attention
 * filters (contract ATTENTION_KINDS; thresholds from ATTENTION_THRESHOLDS and LOW_BATTERY_PERCENT),
 * shared by the lock list (门锁信息), its export and the fleet overview (门锁概况), so a count on the
 * overview is exactly what its link lists. Reads (never writes) the command and credential tables;
 * each condition is a semi-join on an index led by lock_id (migration *_lock_attention).
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
  configDrift: sql`exists (select 1 from (select c.data -> 'config' as desired from commands c
      where c.lock_id = ${lockId} and c.type = 'configPush' and c.state <> 'CANCELED' order by c.id desc limit 1) d
    where not (coalesce(${locks.config}, '{}'::jsonb) @> d.desired))`,
  credentialDrift: sql`(exists (select 1 from lock_users u where u.lock_id = ${lockId} and u.sync_state <> 'normal')
    or exists (select 1 from credentials k where k.lock_id = ${lockId} and k.sync_state <> 'normal'))`,
  failedCommands: sql`exists (select 1 from commands c where c.lock_id = ${lockId} and c.state in (${failedStates})
    and c.completed_at > now() - make_interval(hours => ${ATTENTION_THRESHOLDS.failedCommandsHours}))`,
};
