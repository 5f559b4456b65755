/**
 * Snapshots of the analysis's costly parts per data centre (table analysis_snapshots). At 100,000
 * locks the current-state scan took 300-900 ms and a 90-day top 10 up to 280 ms per request (bench/analysis.ts,
 * bench/RESULTS.md), so the analysis job recomputes them and a request reads one row:
 * - current (fleet, attention, distributions, buildings, open alarms, queued commands, new locks per
 *   day of the longest range): every `currentMs` (config ANALYSIS_SNAPSHOT_MS, default 5 s);
 * - lists (top 10 locks by alarms and by failed attempts for each range, the battery forecast, itself
 *   recomputed every 10 min): every `listsMs` (12 periods, 60 s by default).
 * A request uses a part only while it is younger than STALE_FACTOR of its period; otherwise (the job
 * not running, as in the API tests, or falling behind) it computes that part itself, as before.
 * Refreshing is safe on several instances: a tenant's row is claimed with FOR UPDATE SKIP LOCKED.
 */
import { ANALYSIS_RANGES, type Analysis } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { currentOf, workOf } from './kpis.js';
import { firstDayOf, forecastOf, newLocksOf, topOf } from './trends.js';

/** A part older than this many of its periods is not used (the request computes it). */
const STALE_FACTOR = 3;

export type CurrentPart = Awaited<ReturnType<typeof currentOf>> & Awaited<ReturnType<typeof workOf>> & { newLocks: { day: string; n: number }[] };
export interface ListsPart {
  /** By range, days: '7' | '30' | '90'. */
  top: Record<string, Analysis['top']>;
  batteryForecast: Analysis['batteryForecast'];
}

export interface SnapshotPeriods {
  /** ms between recomputations of the current part. */
  currentMs: number;
  /** ms between recomputations of the lists part. */
  listsMs: number;
}

/** A jsonb column's value (PGlite may hand it over as text); undefined for null. */
export const jsonOf = <T>(value: T | string | null): T | undefined => (value === null ? undefined : typeof value === 'string' ? JSON.parse(value) as T : value);

/** The periods of config ANALYSIS_SNAPSHOT_MS: the current part every `ms`, the lists every 12. */
export const snapshotPeriods = (ms: number): SnapshotPeriods => ({ currentMs: ms, listsMs: ms * 12 });

/** The current part of `tenantId` (null: every data centre), computed now. wakeWindowMs: config WAKE_WINDOW_MS. */
export async function computeCurrent(db: Executor, tenantId: number | null, wakeWindowMs: number, newLocksSince: string): Promise<CurrentPart> {
  return { ...await currentOf(db, tenantId, wakeWindowMs), ...await workOf(db, tenantId), newLocks: await newLocksOf(db, tenantId, newLocksSince) };
}

/** Top 10 lists of one range starting on `first` (YYYY-MM-DD). */
export async function computeTop(db: Executor, tenantId: number | null, first: string): Promise<Analysis['top']> {
  return { alarms: await topOf(db, tenantId, 'alarm', first), failed: await topOf(db, tenantId, 'unlock_failed', first) };
}

async function computeLists(db: Executor, tenantId: number): Promise<ListsPart> {
  const top: ListsPart['top'] = {};
  for (const days of ANALYSIS_RANGES) top[String(days)] = await computeTop(db, tenantId, await firstDayOf(db, tenantId, days));
  return { top, batteryForecast: await forecastOf(db, tenantId) };
}

/**
 * Recomputes the due parts of every data centre's snapshot; returns how many parts it wrote. Each
 * tenant in its own owner transaction; a row another instance holds is skipped.
 */
export async function refreshSnapshots(database: Database, wakeWindowMs: number, periods: SnapshotPeriods): Promise<number> {
  const tenants = rowsOf<{ id: number }>(await database.system.execute(sql`select id from tenants order by id`));
  const longest = Math.max(...ANALYSIS_RANGES);
  let written = 0;
  for (const { id } of tenants) {
    written += await database.transaction(async (tx) => {
      await tx.execute(sql`insert into analysis_snapshots (tenant_id) values (${id}) on conflict do nothing`);
      const [due] = rowsOf<{ current: boolean; lists: boolean }>(await tx.execute(sql`
        select current_at is null or current_at <= now() - ${periods.currentMs} * interval '1 ms' as current,
          lists_at is null or lists_at <= now() - ${periods.listsMs} * interval '1 ms' as lists
        from analysis_snapshots where tenant_id = ${id} for update skip locked`));
      if (!due) return 0;
      if (due.current) {
        const current = await computeCurrent(tx, id, wakeWindowMs, await firstDayOf(tx, id, longest));
        await tx.execute(sql`update analysis_snapshots set current = ${JSON.stringify(current)}::jsonb, current_at = clock_timestamp() where tenant_id = ${id}`);
      }
      if (due.lists) {
        const lists = await computeLists(tx, id);
        await tx.execute(sql`update analysis_snapshots set lists = ${JSON.stringify(lists)}::jsonb, lists_at = clock_timestamp() where tenant_id = ${id}`);
      }
      return Number(due.current) + Number(due.lists);
    });
  }
  return written;
}

/**
 * The select list of a snapshot row `s` with each part only while fresh (else null): current,
 * lists, and "currentAt". Used by readSnapshot and the all-data-centres merge (snapshot-merge.ts).
 */
export const freshParts = (periods: SnapshotPeriods) => sql`
  case when s.current_at > now() - ${periods.currentMs * STALE_FACTOR} * interval '1 ms' then s.current end as current,
  case when s.lists_at > now() - ${periods.listsMs * STALE_FACTOR} * interval '1 ms' then s.lists end as lists, s.current_at as "currentAt"`;

/** The tenant's fresh parts (undefined: missing or stale), read through the tenant's own connection. */
export async function readSnapshot(db: Executor, tenantId: number, periods: SnapshotPeriods): Promise<{ current?: CurrentPart; currentAt?: string; lists?: ListsPart }> {
  const [row] = rowsOf<{ current: CurrentPart | null; currentAt: Date | string | null; lists: ListsPart | null }>(await db.execute(sql`
    select ${freshParts(periods)} from analysis_snapshots s where s.tenant_id = ${tenantId}`));
  if (!row) return {};
  const current = jsonOf(row.current);
  return { current, currentAt: current && row.currentAt ? new Date(row.currentAt).toISOString() : undefined, lists: jsonOf(row.lists) };
}
