/**
 * History of the analysis, read only from the rollups (rollup.ts): per-day trends, today's
 * unlocks, per-hour today vs yesterday, top 10 locks, battery forecasts. Days and hours are those of
 * the data centre's time zone (kpis.ts zoneOf; DEFAULT_TIME_ZONE for `tenantId` null: every data centre).
 */
import { type Analysis, BATTERY_FORECAST_DAYS, protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { tenantAnd, zoneOf } from './kpis.js';

const METHODS = protocol.OPEN_METHODS;
const KINDS = Object.keys(protocol.ALERT_KINDS) as protocol.AlertKind[];
const filled = <K extends string>(keys: readonly K[], value: () => number[]) => Object.fromEntries(keys.map((k) => [k, value()])) as Record<K, number[]>;

/** YYYY-MM-DD of each of the last `days` days (today last). */
function dayList(today: string, days: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** Locks registered per day (YYYY-MM-DD in the data centre's zone) since `first`, not decommissioned. */
export async function newLocksOf(db: Executor, tenantId: number | null, first: string): Promise<{ day: string; n: number }[]> {
  return rowsOf<{ day: string; n: number }>(await db.execute(sql`
    select to_char((l.created_at at time zone ${zoneOf(tenantId)})::date, 'YYYY-MM-DD') as day, count(*)::int as n from locks l
    where l.created_at >= (${first}::date::timestamp at time zone ${zoneOf(tenantId)}) and l.decommissioned_at is null ${tenantAnd('l', tenantId)} group by 1`));
}

/** Today, YYYY-MM-DD in the zone of `tenantId` (kpis.ts zoneOf). */
async function todayOf(db: Executor, tenantId: number | null): Promise<string> {
  const [{ today }] = rowsOf<{ today: string }>(await db.execute(sql`select to_char(now() at time zone ${zoneOf(tenantId)}, 'YYYY-MM-DD') as today`)) as [{ today: string }];
  return today;
}

/** The first day (YYYY-MM-DD in the zone of `tenantId`) of a range of `days` days ending today. */
export async function firstDayOf(db: Executor, tenantId: number | null, days: number): Promise<string> {
  const today = await todayOf(db, tenantId);
  return dayList(today, days)[0] as string;
}

/**
 * Trends, today's unlocks and alarms per kind over the range; `total`: the registered locks now
 * (currentOf's fleet total); `newLocks`: newLocksOf since at least the range's first day (a snapshot's
 * may reach further back; days outside the range are ignored).
 */
export async function trendsOf(db: Executor, tenantId: number | null, days: number, total: number, newLocks?: { day: string; n: number }[]) {
  const list = dayList(await todayOf(db, tenantId), days);
  const first = list[0] as string;
  const rows = rowsOf<{ day: string; metric: string; n: string }>(await db.execute(sql`
    select to_char(d.day, 'YYYY-MM-DD') as day, d.metric, sum(d.n)::text as n from analysis_tenant_day d
    where d.day >= ${first}::date and (d.metric like 'unlock%' or d.metric like 'alarm.%' or d.metric = 'reporting') ${tenantAnd('d', tenantId)}
    group by 1, 2`));
  const index = new Map(list.map((d, i) => [d, i]));
  const trends: Analysis['trends'] = {
    days: list, unlocks: filled(METHODS, () => list.map(() => 0)), failed: list.map(() => 0), alarms: filled(KINDS, () => list.map(() => 0)),
    onlineRate: list.map(() => 0), newLocks: list.map(() => 0),
  };
  const reporting = list.map(() => 0);
  for (const r of rows) {
    const i = index.get(r.day);
    if (i === undefined) continue;
    const value = Number(r.n);
    if (r.metric === 'unlock_failed') trends.failed[i] = value;
    else if (r.metric === 'reporting') reporting[i] = value;
    else if (r.metric.startsWith('unlock.')) { const m = r.metric.slice(7) as protocol.OpenMethod; if (trends.unlocks[m]) trends.unlocks[m][i] = value; }
    else if (r.metric.startsWith('alarm.')) { const k = r.metric.slice(6) as protocol.AlertKind; if (trends.alarms[k]) trends.alarms[k][i] = value; }
  }
  for (const r of newLocks ?? await newLocksOf(db, tenantId, first)) { const i = index.get(r.day); if (i !== undefined) trends.newLocks[i] = Number(r.n); }
  // Registered on a day: today's fleet less the locks added after that day (at least those that reported).
  let laterAdded = 0;
  for (let i = list.length - 1; i >= 0; i--) {
    const registered = Math.max(total - laterAdded, reporting[i] ?? 0);
    trends.onlineRate[i] = registered > 0 ? (reporting[i] ?? 0) / registered : 0;
    laterAdded += trends.newLocks[i] ?? 0;
  }
  const last = list.length - 1;
  const unlocksToday = { byMethod: Object.fromEntries(METHODS.map((m) => [m, trends.unlocks[m][last] ?? 0])) as Analysis['unlocksToday']['byMethod'], failed: trends.failed[last] ?? 0 };
  const alarmsByKind = Object.fromEntries(KINDS.map((k) => [k, trends.alarms[k].reduce((a, b) => a + b, 0)])) as Analysis['alarmsByKind'];
  return { trends, unlocksToday, alarmsByKind, first };
}

/** Unlock attempts and alarms per hour of today and yesterday. */
export async function hourlyOf(db: Executor, tenantId: number | null): Promise<Analysis['hourly']> {
  const zone = zoneOf(tenantId);
  const rows = rowsOf<{ d: number; h: number; metric: string; n: string }>(await db.execute(sql`
    with bounds as (select date_trunc('day', now() at time zone ${zone}) as today)
    select ((t.hour at time zone ${zone})::date - (select today from bounds)::date)::int as d,
      extract(hour from t.hour at time zone ${zone})::int as h, case when t.metric = 'alarm' then 'alarm' else 'unlock' end as metric, sum(t.n)::text as n
    from analysis_tenant_hour t
    where t.hour >= ((select today from bounds) - interval '1 day') at time zone ${zone} and (t.metric like 'unlock%' or t.metric = 'alarm') ${tenantAnd('t', tenantId)}
    group by 1, 2, 3`));
  const hourly = { unlocksToday: new Array(24).fill(0), unlocksYesterday: new Array(24).fill(0), alarmsToday: new Array(24).fill(0), alarmsYesterday: new Array(24).fill(0) };
  for (const r of rows) {
    if (r.d !== 0 && r.d !== -1) continue;
    const key = `${r.metric}s${r.d === 0 ? 'Today' : 'Yesterday'}` as keyof typeof hourly;
    hourly[key][r.h] = Number(r.n);
  }
  return hourly;
}

const lockRef = sql`l.id as "lockId", l.imei, l.name, concat_ws('/', nullif(l.building, ''), nullif(l.floor, ''), nullif(l.room, '')) as room`;

/**
 * The 10 locks with the most of `metric` (alarm | unlock_failed) since `first` (YYYY-MM-DD), from the
 * partial index analysis_lock_day_top alone (the metric is a literal so the planner matches it; n fits
 * an int per lock and day, and an int sum keeps the per-lock hash state small).
 */
export async function topOf(db: Executor, tenantId: number | null, metric: 'alarm' | 'unlock_failed', first: string) {
  const tenantFilter = tenantId === null ? sql`` : sql`and d.tenant_id = ${tenantId}`;
  const rows = rowsOf<{ lockId: number; imei: string; name: string; room: string; count: string }>(await db.execute(sql`
    select ${lockRef}, t.count::text as count from (
      select d.lock_id, sum(d.n::int) as count from analysis_lock_day d where d.metric = ${sql.raw(`'${metric}'`)} and d.day >= ${first}::date ${tenantFilter}
      group by d.lock_id order by sum(d.n::int) desc, d.lock_id limit 10) t
    join locks l on l.id = t.lock_id order by t.count desc, l.id`));
  return rows.map((r) => ({ ...r, lockId: Number(r.lockId), count: Number(r.count) }));
}

/** Locks predicted to run flat within BATTERY_FORECAST_DAYS: how many, and the 10 soonest. */
export async function forecastOf(db: Executor, tenantId: number | null): Promise<Analysis['batteryForecast']> {
  const where = sql`f.flat_at < now() + make_interval(days => ${BATTERY_FORECAST_DAYS}) and l.decommissioned_at is null ${tenantAnd('f', tenantId)}`;
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`
    select count(*)::int as total from analysis_battery_forecast f join locks l on l.id = f.lock_id where ${where}`)) as [{ total: number }];
  const rows = rowsOf<{ lockId: number; imei: string; name: string; room: string; battery: number; slopePerDay: number; flatAt: Date | string }>(await db.execute(sql`
    select ${lockRef}, f.battery, f.slope_per_day as "slopePerDay", f.flat_at as "flatAt"
    from analysis_battery_forecast f join locks l on l.id = f.lock_id where ${where} order by f.flat_at, f.lock_id limit 10`));
  return { total: Number(total), locks: rows.map((r) => ({ ...r, lockId: Number(r.lockId), battery: Number(r.battery), slopePerDay: Number(r.slopePerDay), flatAt: iso(r.flatAt) })) };
}
