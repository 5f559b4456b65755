/**
 * Battery forecasts (table analysis_battery_forecast, owned by this module) and the batteryCliff derived
 * alarm. A lock's trend is the least-squares slope of its daily mean battery (rollup
 * metric `battery` of analysis_lock_day) over the last 14 days, from at least 3 days; a draining lock
 * (slope < 0) runs flat at now + battery / -slope days. batteryCliff is raised while that is within
 * the tenant's batteryCliffDays and cleared once it is not (a new battery, a flatter trend).
 */
import { DEFAULT_TIME_ZONE } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { clearDerivedAlarms, raiseDerivedAlarms } from '../deviceAlert/lock.js';
import { thresholdsOf } from './thresholds.js';

const TREND_DAYS = 14;
const MIN_DAYS = 3;

/** Recomputes every forecast. */
async function computeForecasts(tx: Tx): Promise<void> {
  await tx.execute(sql`
    with d as (
      select lock_id, min(tenant_id) as tenant_id, day, sum(sum)::float8 / nullif(sum(n), 0) as battery
      from analysis_lock_day where metric = 'battery' and day >= (now() at time zone ${DEFAULT_TIME_ZONE})::date - ${TREND_DAYS}::int -- a day either way of a data centre's own zone does not move a 14-day slope
      group by lock_id, day),
    f as (
      select lock_id, min(tenant_id) as tenant_id, regr_slope(battery, (day - date '2000-01-01')::float8) as slope
      from d group by lock_id having count(*) >= ${MIN_DAYS}::int)
    insert into analysis_battery_forecast as t (lock_id, tenant_id, slope_per_day, battery, flat_at, computed_at)
    select f.lock_id, f.tenant_id, f.slope, l.battery,
      case when f.slope < 0 then now() + make_interval(secs => l.battery / -f.slope * 86400) end, now()
    from f join locks l on l.id = f.lock_id where l.battery is not null and f.slope is not null
    on conflict (lock_id) do update set tenant_id = excluded.tenant_id, slope_per_day = excluded.slope_per_day,
      battery = excluded.battery, flat_at = excluded.flat_at, computed_at = excluded.computed_at`);
  // Locks without a trend any more (no readings for days) lose their forecast: now() is this transaction's start.
  await tx.execute(sql`delete from analysis_battery_forecast where computed_at < now()`);
}

/** Raises batteryCliff where the forecast is within the threshold, clears it elsewhere. */
async function applyBatteryCliffs(tx: Tx): Promise<void> {
  const due = rowsOf<{ lockId: number; tenantId: number; days: number }>(await tx.execute(sql`
    select f.lock_id as "lockId", f.tenant_id as "tenantId", ceil(extract(epoch from f.flat_at - now()) / 86400)::int as days
    from analysis_battery_forecast f cross join lateral ${thresholdsOf(sql`f.tenant_id`)}
    join locks l on l.id = f.lock_id and l.decommissioned_at is null
    where f.flat_at < now() + make_interval(days => th.battery_cliff_days)
      and not exists (select 1 from alerts a where a.lock_id = f.lock_id and a.kind = 'batteryCliff' and a.state = 'active')`));
  await raiseDerivedAlarms(tx, due.map((r) => ({ lockId: r.lockId, tenantId: r.tenantId, kind: 'batteryCliff', detail: `flat in ${r.days} d` })));
  const recovered = rowsOf<{ lockId: number }>(await tx.execute(sql`
    select a.lock_id as "lockId" from alerts a cross join lateral ${thresholdsOf(sql`a.tenant_id`)}
    left join analysis_battery_forecast f on f.lock_id = a.lock_id
    where a.device_kind = 'lock' and a.kind = 'batteryCliff' and a.state = 'active'
      and (f.flat_at is null or f.flat_at >= now() + make_interval(days => th.battery_cliff_days))`));
  await clearDerivedAlarms(tx, 'batteryCliff', recovered.map((r) => r.lockId));
}

/** Recomputes forecasts and applies batteryCliff, once across instances (others skip while one runs). */
export async function runForecasts(database: Database): Promise<boolean> {
  return database.transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext('iot.analysis.forecast')) as ok`));
    if (!lock?.ok) return false;
    await computeForecasts(tx);
    await applyBatteryCliffs(tx);
    return true;
  });
}
