/**
 * The lock-room list (lock picker; room level of 产品's tree) and the location tree (buildings, then
 * the floors of one), in the tenant's transaction. Both list the locks whose IMEI was not released
 * (decommissioned ones too: their history is kept) and lean on the index locks_tenant_location
 * (tenant, building, floor, room), so a floor of a 100,000-lock data centre is an index range.
 */
import type { LocationNode, LockOption } from '@iot/contract';
import { and, asc, eq, isNull, type Placeholder, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { pagedForPrepare, pagingShape, preparedOn } from '../../db/prepared.js';
import { containsPattern, isoSql } from '../../db/sql.js';
import { jsonArraySql, jsonFields, jsonObjectLateral } from '../../db/json-rows.js';
import { JsonText } from '../../http/json-text.js';
import { liveStateSql } from './attention.js';
import { nextWakeSql, stateSql } from './repo.js';
import { lockPatternMatch, roomSql } from './sql.js';

/** Lock-room list filters (contract lockOptionsQuery). */
export interface LockRoomQuery {
  keyword?: string;
  building?: string;
  floor?: string;
  room?: string;
  size: number;
}

/**
 * The page's rows (CTE `page`) with their open alarms, counted by one probe of alerts for all of the
 * page's locks (alerts_one_active: lock, kind where active) instead of a sub-select per row: PostgreSQL
 * re-ran that sub-select's scan for each of 100 rows, 3.6 µs a row on the bench's empty alerts table
 * (a relation-size call per rescan), 1.2 µs with 19,000 active alerts (bench/RESULTS.md, 2026-11-30).
 * Columns in LockOption's order (the JSON keys); alerts is read here, written by modules/lockAlert.
 */
const withOpenAlarms = sql.raw(`(select p.id, p.imei, p.name, p.room, p."liveState", p."nextWakeAt", p.battery, p."doorState",
  coalesce(al.n, 0) as "openAlarms", p.state, p.location from page p left join (select a.lock_id, count(*) as n from alerts a
  where a.state = 'active' and a.lock_id = any(array(select id from page)) group by a.lock_id) al on al.lock_id = p.id) o`);

/**
 * At most `size` locks matching the query, ordered by id, with their room, live state, battery, door and
 * open alarms, as the JSON text of the contract's LockOption[] built by the database (http/json-text.ts:
 * no column is read, no object built and no JSON written per row here). A prepared statement per filter
 * shape (db/prepared.ts): every lock picker asks for it.
 */
export async function listLockRooms(tx: Tx, query: LockRoomQuery, wakeWindowMs: number): Promise<JsonText<LockOption[]>> {
  const given = ROOM_FILTERS.filter((field) => query[field] !== undefined);
  // Keys in LockOption's order, as JSON.stringify wrote the objects this list used to build.
  const options = (bind: (field: (typeof ROOM_FILTERS)[number]) => string | Placeholder<string>) => tx.select(jsonFields({
    id: locks.id, imei: locks.imei, name: locks.name, room: roomSql, liveState: liveStateSql(wakeWindowMs), nextWakeAt: isoSql(nextWakeSql),
    battery: locks.battery, doorState: locks.doorState, state: stateSql,
    location: optionLocation.json,
  })).from(locks).crossJoinLateral(optionLocation.join).where(and(isNull(locks.imeiReleasedAt), ...given.map((field) => field === 'keyword'
    ? lockPatternMatch(bind(field)) : eq(locks[field], bind(field)))))
    .orderBy(asc(locks.id)).$dynamic();
  const list = (rows: ReturnType<typeof options>) => {
    const page = tx.$with('page').as(rows);
    return tx.with(page).select({ json: jsonArraySql('o', sql`o.id`) }).from(withOpenAlarms);
  };
  const values = { ...query, keyword: query.keyword === undefined ? undefined : containsPattern(query.keyword) };
  const rows = query.keyword !== undefined
    // A keyword is planned with its value every time: a cached generic plan cannot know that the pattern
    // suits the trigram indexes and scans the whole data centre (lockDevice/repo.ts listLocks).
    ? await list(options((field) => values[field] ?? '').limit(query.size))
    // The size written into the SQL (pagedForPrepare), as the other prepared lists do.
    : await preparedOn(tx, `lock_rooms:${wakeWindowMs}:${given.join(',')}:${pagingShape(query.size, 0)}`, (name) =>
      list(pagedForPrepare(options((field) => sql.placeholder(field)), query.size, 0)).prepare(name)).execute({ ...values, limit: query.size });
  return new JsonText(rows[0]?.json ?? '[]');
}

/** An option's `location` object (jsonObjectLateral). */
const optionLocation = jsonObjectLateral('location_row', { building: locks.building, floor: locks.floor, room: locks.room });

/** The lock-room list's filters, in the order they enter its statement. */
const ROOM_FILTERS = ['keyword', 'building', 'floor', 'room'] as const;

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
