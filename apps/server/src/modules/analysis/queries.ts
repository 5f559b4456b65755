/**
 * The analysis (GET /iot/v1/lockDevice/analysis) and the live feed (.../analysis/feed).
 * `tenantId` null: every data centre, read on the owner connection in a read-only transaction (the
 * routes allow it to administrators only).
 */
import type { Analysis, AnalysisFeedItem } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { iso } from '../../db/sql.js';
import { tenantAnd } from './kpis.js';
import { mergedSnapshots } from './snapshot-merge.js';
import { computeCurrent, computeTop, readSnapshot, type SnapshotPeriods } from './snapshot.js';
import { firstDayOf, forecastOf, hourlyOf, trendsOf } from './trends.js';

/** Runs `fn` over the tenant (row-level security) or, for null, over every data centre read-only. */
export function readScope<T>(database: Database, tenantId: number | null, fn: (db: Executor) => Promise<T>): Promise<T> {
  if (tenantId !== null) return database.readTenant(tenantId, fn);
  return database.transaction(async (tx) => {
    await tx.execute(sql`set transaction read only`);
    return fn(tx);
  });
}

/**
 * Every figure of the analysis over the last `days` days. wakeWindowMs: protocol wake window (asleep
 * KPI). `snapshots`: the job's periods (snapshot.ts); a tenant's fresh snapshot parts are used and
 * `generatedAt` is then the current part's time (the oldest, for every data centre: null, merged by
 * snapshot-merge.ts); missing or stale parts are computed in the request.
 */
export async function analyse(db: Executor, tenantId: number | null, days: number, wakeWindowMs: number, snapshots?: SnapshotPeriods): Promise<Analysis> {
  const snapshot = !snapshots ? {} : tenantId !== null ? await readSnapshot(db, tenantId, snapshots) : (await mergedSnapshots(db, snapshots)) ?? {};
  const current = snapshot.current ?? await computeCurrent(db, tenantId, wakeWindowMs, await firstDayOf(db, tenantId, days));
  const { fleet, attention, distributions, buildings, alarmsOpen, commands } = current;
  const { trends, unlocksToday, alarmsByKind, first } = await trendsOf(db, tenantId, days, fleet.total, current.newLocks);
  return {
    generatedAt: snapshot.currentAt ?? new Date().toISOString(), scope: tenantId === null ? 'all' : 'tenant',
    fleet, attention, alarmsOpen, commands, unlocksToday, trends, hourly: await hourlyOf(db, tenantId), alarmsByKind, distributions,
    top: snapshot.lists?.top[String(days)] ?? await computeTop(db, tenantId, first),
    batteryForecast: snapshot.lists?.batteryForecast ?? await forecastOf(db, tenantId), buildings,
  };
}

const FEED_MAX = 50;

/** Alarms raised or repeated and unlock attempts received after `after` (at most the last hour), newest first. */
export async function feedOf(db: Executor, tenantId: number | null, after: string | undefined): Promise<AnalysisFeedItem[]> {
  const since = sql`greatest(coalesce(${after ?? null}::timestamptz, now() - interval '10 minutes'), now() - interval '1 hour')`;
  const lock = sql`l.imei, l.name, concat_ws('/', nullif(l.building, ''), nullif(l.floor, ''), nullif(l.room, '')) as room`;
  const rows = rowsOf<{ id: string; type: 'alarm' | 'unlock'; at: Date | string; tenantId: number; imei: string; name: string; room: string; what: string; level: string }>(await db.execute(sql`
    (select 'alarm:' || a.id as id, 'alarm' as type, a.last_at as at, a.tenant_id as "tenantId", ${lock}, a.kind as what, a.severity as level
      from alerts a join locks l on l.id = a.lock_id where a.last_at > ${since} ${tenantAnd('a', tenantId)} order by a.last_at desc limit ${FEED_MAX})
    union all
    (select 'unlock:' || o.id, 'unlock', o.received_at, o.tenant_id, ${lock}, o.method, case when o.success then 'success' else 'failed' end
      from open_records o join locks l on l.id = o.lock_id where o.received_at > ${since} ${tenantAnd('o', tenantId)} order by o.received_at desc limit ${FEED_MAX})
    order by at desc limit ${FEED_MAX}`));
  return rows.map((r) => ({ ...r, tenantId: Number(r.tenantId), at: iso(r.at) }));
}
