/**
 * 门锁概况: the data centre's registered locks (decommissioned left out) at a glance, in the
 * tenant's transaction: counts by live state, type, firmware, building and group, battery and RSSI
 * distributions and the attention counts. The attention counts use the lock list's own conditions
 * (attention.ts), so each count is what its link to 门锁信息 lists. Five statements.
 */
import { ATTENTION_KINDS, BATTERY_BUCKET_PERCENT, type LockSurvey, RSSI_BUCKET_EDGES_DBM } from '@iot/contract';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { lockGroupMembers, lockGroups, locks } from '../../db/schema.js';
import { ATTENTION_SQL, liveStateSql } from './attention.js';

/** The largest this many groups of each dimension are listed. */
const TOP = 50;
const registered = and(isNull(locks.imeiReleasedAt), isNull(locks.decommissionedAt));
const countWhere = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

/** Counts per value of `column`, largest first (ties by value). */
async function countBy(tx: Tx, column: PgColumn) {
  return tx.select({ key: sql<string>`${column}`, count: sql<number>`count(*)`.mapWith(Number) }).from(locks).where(registered)
    .groupBy(column).orderBy(desc(sql`count(*)`), column).limit(TOP);
}

/** [from, to) buckets over `edges`: (-inf, e0), [e0, e1), ... [en, +inf). */
function edgesToBuckets(edges: readonly number[]) {
  return [null, ...edges].map((from, index) => ({ from, to: edges[index] ?? null }));
}

/** The fleet overview of the tenant. */
export async function surveyLocks(tx: Tx, wakeWindowMs: number): Promise<LockSurvey> {
  const live = liveStateSql(wakeWindowMs);
  const batteryBuckets = Array.from({ length: 100 / BATTERY_BUCKET_PERCENT }, (_, index) => ({
    from: index * BATTERY_BUCKET_PERCENT, to: index === 100 / BATTERY_BUCKET_PERCENT - 1 ? 100 : (index + 1) * BATTERY_BUCKET_PERCENT,
  }));
  const rssiBuckets = edgesToBuckets(RSSI_BUCKET_EDGES_DBM);
  const inRange = (column: PgColumn, from: number | null, to: number | null, last = false) => sql.join([
    sql`${column} is not null`, ...(from === null ? [] : [sql`${column} >= ${from}`]),
    ...(to === null ? [] : [last ? sql`${column} <= ${to}` : sql`${column} < ${to}`]),
  ], sql` and `);
  const [row] = await tx.select({
    total: sql<number>`count(*)`.mapWith(Number),
    online: countWhere(sql`${live} = 'online'`), asleep: countWhere(sql`${live} = 'asleep'`), offline: countWhere(sql`${live} = 'offline'`),
    disabled: countWhere(sql`not ${locks.enabled}`),
    batteryUnknown: countWhere(sql`${locks.battery} is null`), rssiUnknown: countWhere(sql`${locks.rssi} is null`),
    ...Object.fromEntries(batteryBuckets.map((b, index) => [`b${index}`, countWhere(inRange(locks.battery, b.from, b.to, index === batteryBuckets.length - 1))])),
    ...Object.fromEntries(rssiBuckets.map((b, index) => [`r${index}`, countWhere(inRange(locks.rssi, b.from, b.to))])),
    ...Object.fromEntries(ATTENTION_KINDS.map((kind) => [kind, countWhere(ATTENTION_SQL[kind])])),
  }).from(locks).where(registered);
  const counts = (row ?? {}) as Record<string, number>;
  const groups = await tx.select({ id: lockGroups.id, name: lockGroups.name, count: sql<number>`count(${locks.id})`.mapWith(Number) })
    .from(lockGroups).leftJoin(lockGroupMembers, eq(lockGroupMembers.groupId, lockGroups.id))
    .leftJoin(locks, and(eq(locks.id, lockGroupMembers.lockId), registered))
    .groupBy(lockGroups.id, lockGroups.name).orderBy(desc(sql`count(${locks.id})`), lockGroups.name).limit(TOP);
  return {
    total: counts.total ?? 0,
    liveStates: { online: counts.online ?? 0, asleep: counts.asleep ?? 0, offline: counts.offline ?? 0 },
    disabled: counts.disabled ?? 0,
    types: await countBy(tx, locks.model),
    firmware: await countBy(tx, locks.firmwareVersion),
    buildings: await countBy(tx, locks.building),
    groups,
    battery: batteryBuckets.map((b, index) => ({ ...b, count: counts[`b${index}`] ?? 0 })),
    batteryUnknown: counts.batteryUnknown ?? 0,
    rssi: rssiBuckets.map((b, index) => ({ ...b, count: counts[`r${index}`] ?? 0 })),
    rssiUnknown: counts.rssiUnknown ?? 0,
    attention: Object.fromEntries(ATTENTION_KINDS.map((kind) => [kind, counts[kind] ?? 0])) as LockSurvey['attention'],
  };
}
