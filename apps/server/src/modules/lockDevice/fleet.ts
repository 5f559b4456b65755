/**
 * The lock-room list (lock picker; room level of 产品's tree) and the location tree (buildings, then
 * the floors of one), in the tenant's transaction. Both list the locks whose IMEI was not released
 * (decommissioned ones too: their history is kept) and lean on the index locks_tenant_location
 * (tenant, building, floor, room), so a floor of a 100,000-lock data centre is an index range.
 */
import type { LocationNode, LockOption } from '@iot/contract';
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { liveStateSql } from './attention.js';
import { nextWakeSql, stateSql } from './repo.js';
import { lockKeyword, roomSql } from './sql.js';

/** Lock-room list filters (contract lockOptionsQuery). */
export interface LockRoomQuery {
  keyword?: string;
  building?: string;
  floor?: string;
  room?: string;
  size: number;
}

// Qualified by hand: drizzle renders the columns of a single-table select unqualified.
const openAlarmsSql = sql<number>`(select count(*) from alerts a where a.lock_id = "locks"."id" and a.state = 'active')`.mapWith(Number);

/** At most `size` locks matching the query, ordered by id, with their room, live state, battery, door and open alarms. */
export async function listLockRooms(tx: Tx, query: LockRoomQuery, wakeWindowMs: number): Promise<LockOption[]> {
  const conditions: (SQL | undefined)[] = [isNull(locks.imeiReleasedAt), query.keyword ? lockKeyword(query.keyword) : undefined];
  if (query.building !== undefined) conditions.push(eq(locks.building, query.building));
  if (query.floor !== undefined) conditions.push(eq(locks.floor, query.floor));
  if (query.room !== undefined) conditions.push(eq(locks.room, query.room));
  const rows = await tx.select({
    id: locks.id, imei: locks.imei, name: locks.name, room: roomSql, building: locks.building, floor: locks.floor, roomPart: locks.room,
    liveState: liveStateSql(wakeWindowMs), nextWakeAt: nextWakeSql, battery: locks.battery, doorState: locks.doorState,
    openAlarms: openAlarmsSql, state: stateSql,
  }).from(locks).where(and(...conditions)).orderBy(asc(locks.id)).limit(query.size);
  return rows.map(({ building, floor, roomPart, nextWakeAt, ...row }) => ({
    ...row, location: { building, floor, room: roomPart }, nextWakeAt: iso(nextWakeAt),
  }));
}

/**
 * The buildings of the data centre (no `building`), or the floors of `building` (`''`: the locks not
 * placed), each with its locks counted by live state and the locks with an active alarm; by name.
 */
export async function locationTree(tx: Tx, building: string | undefined, wakeWindowMs: number): Promise<LocationNode[]> {
  const level = building === undefined ? locks.building : locks.floor;
  const live = liveStateSql(wakeWindowMs);
  const counted = (state: string) => sql<number>`count(*) filter (where ${live} = ${state})`.mapWith(Number);
  return tx.select({
    name: level, locks: sql<number>`count(*)`.mapWith(Number), online: counted('online'), asleep: counted('asleep'), offline: counted('offline'),
    alarmed: sql<number>`count(*) filter (where exists (select 1 from alerts a where a.lock_id = "locks"."id" and a.state = 'active'))`.mapWith(Number),
  }).from(locks)
    .where(and(isNull(locks.imeiReleasedAt), building === undefined ? undefined : eq(locks.building, building)))
    .groupBy(level).orderBy(asc(level));
}
