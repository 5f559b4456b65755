/**
 * Current-state KPIs of the analysis, read from the state tables (locks, alerts, commands:
 * their present rows, not their history). `tenantId` null: every data centre (the
 * administrators' read-only aggregate); otherwise the tenant, also confined by row-level security.
 */
import { DEFAULT_TIME_ZONE, ATTENTION_KINDS, type Analysis, type AttentionKind } from '@iot/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { locks } from '../../db/schema.js';
import { ATTENTION_SQL, liveStateIs, SERVICE_EXPIRING_SQL } from '../lockDevice/attention.js';
import { onlineSql } from '../lockDevice/sql.js';

/** `and <alias>.tenant_id = X`, or nothing for every data centre. */
export const tenantAnd = (alias: string, tenantId: number | null): SQL =>
  tenantId === null ? sql`` : sql`and ${sql.identifier(alias)}.tenant_id = ${tenantId}`;

/**
 * The time zone whose days and hours the analysis counts in, as SQL: the data centre's own
 * (tenants.time_zone), or DEFAULT_TIME_ZONE for every data centre at once.
 */
export const zoneOf = (tenantId: number | null): SQL =>
  tenantId === null ? sql`${DEFAULT_TIME_ZONE}::text` : sql`(select z.time_zone from tenants z where z.id = ${tenantId})`;

/** The per-building grid's length: the largest buildings. */
export const BUILDINGS_MAX = 60;

const n = (condition: SQL) => sql`count(*) filter (where ${condition})`;

/**
 * Fleet counts, attention counts, the battery / RSSI distributions and the per-building grid (at most
 * 60 buildings, the largest first), in one scan of the locks: counted per building, the fleet row
 * summed from those. The conditions are the lock list's own (lockDevice/attention.ts), so each count
 * is what its link lists. wakeWindowMs: how long a sleeping lock stays reachable after an uplink
 * (config WAKE_WINDOW_MS).
 */
export async function currentOf(db: Executor, tenantId: number | null, wakeWindowMs: number) {
  const counts: Record<string, SQL> = {
    total: sql`count(*)`, online: n(onlineSql), asleep: n(liveStateIs('asleep', wakeWindowMs)), serviceExpiring: n(SERVICE_EXPIRING_SQL),
    ...Object.fromEntries(ATTENTION_KINDS.map((kind) => [kind, n(ATTENTION_SQL[kind])])),
    b0: n(sql`${locks.battery} < 20`), b1: n(sql`${locks.battery} between 20 and 39`), b2: n(sql`${locks.battery} between 40 and 59`),
    b3: n(sql`${locks.battery} between 60 and 79`), b4: n(sql`${locks.battery} >= 80`),
    r0: n(sql`${locks.rssi} < -115`), r1: n(sql`${locks.rssi} between -115 and -106`), r2: n(sql`${locks.rssi} between -105 and -96`),
    r3: n(sql`${locks.rssi} between -95 and -86`), r4: n(sql`${locks.rssi} >= -85`),
  };
  const keys = [...Object.keys(counts), 'alarms'];
  const tenant = tenantId === null ? sql`` : sql`and ${locks.tenantId} = ${tenantId}`;
  // Active alerts per lock joined once (a per-lock sub-select ran 100,000 index scans per request).
  const rows = rowsOf<Record<string, number | string | boolean>>(await db.execute(sql`
    with b as materialized (
      select ${locks.building} as building, ${sql.join(Object.entries(counts).map(([key, count]) => sql`${count}::int as ${sql.identifier(key)}`), sql`, `)},
        coalesce(sum(a.n), 0)::int as alarms
      from locks left join (select lock_id, count(*) as n from alerts where device_kind = 'lock' and state = 'active' group by lock_id) a on a.lock_id = ${locks.id}
      where ${locks.decommissionedAt} is null and ${locks.imeiReleasedAt} is null ${tenant}
      group by ${locks.building})
    select * from ((select true as fleet, '' as building, ${sql.join(keys.map((key) => sql`coalesce(sum(${sql.identifier(key)}), 0)::int as ${sql.identifier(key)}`), sql`, `)} from b)
      union all (select false, b.* from b order by total desc, building limit ${BUILDINGS_MAX})) r
    order by fleet desc, total desc, building`));
  const [fleetRow, ...buildingRows] = rows;
  const v = (key: string) => Number(fleetRow?.[key] ?? 0);
  return {
    fleet: { total: v('total'), online: v('online'), asleep: v('asleep'), offline: v('total') - v('online'), serviceExpiring: v('serviceExpiring') },
    attention: Object.fromEntries(ATTENTION_KINDS.map((kind) => [kind, v(kind)])) as Record<AttentionKind, number>,
    distributions: { battery: ['b0', 'b1', 'b2', 'b3', 'b4'].map(v), rssi: ['r0', 'r1', 'r2', 'r3', 'r4'].map(v) },
    buildings: buildingRows.map((r) => ({ building: String(r.building), total: Number(r.total), online: Number(r.online), alarms: Number(r.alarms) })) as Analysis['buildings'],
  };
}

/** Active alerts by severity, commands queued. */
export async function workOf(db: Executor, tenantId: number | null): Promise<Pick<Analysis, 'alarmsOpen' | 'commands'>> {
  const [row] = rowsOf<Record<string, number>>(await db.execute(sql`
    select
      (select count(*) from alerts a where a.device_kind = 'lock' and a.state = 'active' and a.severity = 'critical' ${tenantAnd('a', tenantId)})::int as critical,
      (select count(*) from alerts a where a.device_kind = 'lock' and a.state = 'active' and a.severity = 'major' ${tenantAnd('a', tenantId)})::int as major,
      (select count(*) from alerts a where a.device_kind = 'lock' and a.state = 'active' and a.severity = 'minor' ${tenantAnd('a', tenantId)})::int as minor,
      (select count(*) from alerts a where a.device_kind = 'lock' and a.state = 'active' and a.severity = 'warning' ${tenantAnd('a', tenantId)})::int as warning,
      (select count(*) from commands c where c.device_kind = 'lock' and c.state = 'QUEUED' ${tenantAnd('c', tenantId)})::int as queued`));
  const v = (key: string) => Number(row?.[key] ?? 0);
  return {
    alarmsOpen: { critical: v('critical'), major: v('major'), minor: v('minor'), warning: v('warning') },
    commands: { queued: v('queued') },
  };
}
