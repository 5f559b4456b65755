/**
 * Derived-alarm thresholds per tenant (table analysis_thresholds, owned by this module): a tenant
 * without a row uses contract ANALYSIS_THRESHOLD_DEFAULTS.
 */
import { ANALYSIS_THRESHOLD_DEFAULTS } from '@iot/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

export type Thresholds = { -readonly [K in keyof typeof ANALYSIS_THRESHOLD_DEFAULTS]: number };

const d = ANALYSIS_THRESHOLD_DEFAULTS;

/**
 * SQL: a relation `th(tenant_id, forced_entry_s, brute_force_attempts, brute_force_locks,
 * brute_force_window_s, silent_intervals, battery_cliff_days)` for the tenant column `tenantColumn`,
 * for use as `cross join lateral ${thresholdsOf(sql`l.tenant_id`)}`.
 */
export function thresholdsOf(tenantColumn: SQL): SQL {
  return sql`(select
      coalesce(t.forced_entry_s, ${d.forcedEntryS}) as forced_entry_s,
      coalesce(t.brute_force_attempts, ${d.bruteForceAttempts}) as brute_force_attempts,
      coalesce(t.brute_force_locks, ${d.bruteForceLocks}) as brute_force_locks,
      coalesce(t.brute_force_window_s, ${d.bruteForceWindowS}) as brute_force_window_s,
      coalesce(t.silent_intervals, ${d.silentIntervals})::float8 as silent_intervals,
      coalesce(t.battery_cliff_days, ${d.batteryCliffDays}) as battery_cliff_days
    from (select 1) one left join analysis_thresholds t on t.tenant_id = ${tenantColumn}) th`;
}

/** The thresholds of `tenantId` (its row, else the defaults). */
export async function readThresholds(db: Executor, tenantId: number): Promise<Thresholds> {
  const result = await db.execute(sql`select forced_entry_s as "forcedEntryS", brute_force_attempts as "bruteForceAttempts",
    brute_force_locks as "bruteForceLocks", brute_force_window_s as "bruteForceWindowS", silent_intervals as "silentIntervals",
    battery_cliff_days as "batteryCliffDays" from analysis_thresholds where tenant_id = ${tenantId}`);
  const [row] = (result as unknown as { rows: Thresholds[] }).rows;
  return row ? { ...row, silentIntervals: Number(row.silentIntervals) } : { ...d };
}

/** Sets the thresholds of `tenantId` (the tenant's transaction). */
export async function writeThresholds(db: Executor, tenantId: number, t: Thresholds): Promise<void> {
  await db.execute(sql`insert into analysis_thresholds (tenant_id, forced_entry_s, brute_force_attempts, brute_force_locks, brute_force_window_s, silent_intervals, battery_cliff_days)
    values (${tenantId}, ${t.forcedEntryS}, ${t.bruteForceAttempts}, ${t.bruteForceLocks}, ${t.bruteForceWindowS}, ${t.silentIntervals}, ${t.batteryCliffDays})
    on conflict (tenant_id) do update set forced_entry_s = excluded.forced_entry_s, brute_force_attempts = excluded.brute_force_attempts,
      brute_force_locks = excluded.brute_force_locks, brute_force_window_s = excluded.brute_force_window_s,
      silent_intervals = excluded.silent_intervals, battery_cliff_days = excluded.battery_cliff_days`);
}
