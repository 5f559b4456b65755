/**
 * The all-data-centres analysis (administrators' scope=all) from every data centre's snapshot
 * (snapshot.ts), so the big screen's aggregate costs what one data centre's does. Exact, not
 * estimated: counts and distributions are sums; the global top 10 and the 10 soonest flat batteries
 * are within the union of each data centre's own 10; buildings are summed by name as the live query
 * groups them. Undefined (the request computes it all instead) unless every data centre has both
 * parts fresh and none had its building list cut at BUILDINGS_MAX.
 */
import type { Analysis } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { BUILDINGS_MAX } from './kpis.js';
import { type CurrentPart, freshParts, jsonOf, type ListsPart, type SnapshotPeriods } from './snapshot.js';

type Lock = Analysis['top']['alarms'][number];
type Flat = Analysis['batteryForecast']['locks'][number];

const sum = <T extends Record<string, number>>(parts: T[]): T => {
  const out: Record<string, number> = {};
  for (const part of parts) for (const [key, value] of Object.entries(part)) out[key] = (out[key] ?? 0) + value;
  return out as T;
};
const sumArrays = (parts: number[][]) => (parts[0] ?? []).map((_, i) => parts.reduce((total, part) => total + (part[i] ?? 0), 0));
const topTen = (locks: Lock[]) => [...locks].sort((a, b) => b.count - a.count || a.lockId - b.lockId).slice(0, 10);

/** Every data centre's fresh parts merged, or undefined when one is missing, stale or cut. */
export async function mergedSnapshots(db: Executor, periods: SnapshotPeriods): Promise<{ current: CurrentPart; lists: ListsPart; currentAt: string } | undefined> {
  const rows = rowsOf<{ current: CurrentPart | string | null; lists: ListsPart | string | null; currentAt: Date | string | null }>(await db.execute(sql`
    select ${freshParts(periods)} from tenants t left join analysis_snapshots s on s.tenant_id = t.id`));
  const currents = rows.map((r) => jsonOf(r.current));
  const lists = rows.map((r) => jsonOf(r.lists));
  if (rows.length === 0 || currents.some((c) => !c || c.buildings.length >= BUILDINGS_MAX) || lists.some((l) => !l)) return undefined;
  const cs = currents as CurrentPart[];
  const ls = lists as ListsPart[];
  const buildings = new Map<string, Analysis['buildings'][number]>();
  for (const b of cs.flatMap((c) => c.buildings)) {
    const seen = buildings.get(b.building);
    buildings.set(b.building, seen ? { building: b.building, total: seen.total + b.total, online: seen.online + b.online, alarms: seen.alarms + b.alarms } : { ...b });
  }
  const newLocks = new Map<string, number>();
  for (const { day, n } of cs.flatMap((c) => c.newLocks)) newLocks.set(day, (newLocks.get(day) ?? 0) + n);
  const current: CurrentPart = {
    fleet: sum(cs.map((c) => c.fleet)), attention: sum(cs.map((c) => c.attention)),
    distributions: { battery: sumArrays(cs.map((c) => c.distributions.battery)), rssi: sumArrays(cs.map((c) => c.distributions.rssi)) },
    buildings: [...buildings.values()].sort((a, b) => b.total - a.total || a.building.localeCompare(b.building)).slice(0, BUILDINGS_MAX),
    alarmsOpen: sum(cs.map((c) => c.alarmsOpen)), commands: sum(cs.map((c) => c.commands)),
    newLocks: [...newLocks].map(([day, n]) => ({ day, n })),
  };
  const top: ListsPart['top'] = {};
  for (const days of Object.keys(ls[0]?.top ?? {})) {
    top[days] = { alarms: topTen(ls.flatMap((l) => l.top[days]?.alarms ?? [])), failed: topTen(ls.flatMap((l) => l.top[days]?.failed ?? [])) };
  }
  const soonest = (a: Flat, b: Flat) => Date.parse(a.flatAt) - Date.parse(b.flatAt) || a.lockId - b.lockId;
  const batteryForecast = { total: ls.reduce((n, l) => n + l.batteryForecast.total, 0), locks: ls.flatMap((l) => l.batteryForecast.locks).sort(soonest).slice(0, 10) };
  const oldest = rows.map((r) => new Date(r.currentAt as Date | string).getTime()).reduce((a, b) => Math.min(a, b));
  return { current, lists: { top, batteryForecast }, currentAt: new Date(oldest).toISOString() };
}
