/**
 * Lock queries. Run inside a tenant transaction (row-level security confines them to the tenant).
 * Online: last heartbeat younger than ONLINE_HEARTBEAT_FACTOR x the lock's heartbeat interval.
 */
import { ATTENTION_KINDS, LOCK_VENDOR, type lockFilterQuery, type LockRecord, type LockState, type Page } from '@iot/contract';
import type { z } from 'zod';
import { and, asc, eq, isNull, not, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { lockGroupMembers, locks } from '../../db/schema.js';
import { containsPattern, iso, isoSql } from '../../db/sql.js';
import { jsonArraySql, jsonFields, jsonObjectLateral } from '../../db/json-rows.js';
import { pagedForPrepare, pagingShape, preparedOn } from '../../db/prepared.js';
import { ApiError } from '../../http/api-error.js';
import { cappedTotal, LOG_COUNT_CAP } from '../../db/count.js';
import { JsonText } from '../../http/json-text.js';
import { ATTENTION_SQL, liveStateIs, liveStateSql, SERVICE_EXPIRING_SQL } from './attention.js';
import { lockPatternMatch, onlineSql, roomSql } from './sql.js';
import type { RememberedTotal } from './list-totals.js';

export { onlineSql } from './sql.js';

/**
 * SQL timestamp: when a sleeping lock is next expected to wake, i.e. its next heartbeat (last
 * heartbeat + its interval; event uplinks and command answers do not move a lock's heartbeat timer).
 * Before any heartbeat: last uplink + interval; null before any uplink.
 */
export const nextWakeSql = sql<string | null>`coalesce(${locks.lastHeartbeatAt}, ${locks.lastUplinkAt}) + make_interval(secs => ${locks.heartbeatIntervalS})`;

/** SQL text: the registry state (contract LOCK_STATES). */
export const stateSql = sql<LockState>`case when ${locks.decommissionedAt} is not null then 'decommissioned' when not ${locks.enabled} then 'disabled' else 'active' end`;

/** SQL boolean: the lock is a member of group `groupId` (lock_group_members, read here; written by modules/lockGroup). */
export function inGroupSql(groupId: number | Placeholder): SQL {
  // Qualified by hand: drizzle renders a column of a single-table select unqualified.
  return sql`exists (select 1 from ${lockGroupMembers} m where m.group_id = ${groupId} and m.lock_id = "locks"."id")`;
}

/**
 * The lock list's filters, as the contract's lockFilterQuery parses them (keyword, online, live state,
 * attention kinds, service expiring, model, location parts, state, firmware version, group): one
 * definition for the API, the exports, lock-group targets and the web's filters.
 */
export type LockFilter = z.output<typeof lockFilterQuery>;

/** A filter value as it goes into the SQL: the value itself, or a prepared statement's placeholder of that name. */
type Bind = <V extends string | number>(name: string, value: V) => V | Placeholder;
const inline: Bind = (_name, value) => value;

/**
 * The WHERE of a lock filter (locks of released IMEIs are never listed); `wakeWindowMs`: how long a
 * sleeping lock stays reachable after an uplink (config WAKE_WINDOW_MS), for the live state. With
 * `bind`, the free-text and id values become placeholders (the filter's shape decides the SQL text).
 */
export function lockWhere(filter: LockFilter, wakeWindowMs: number, bind: Bind = inline): SQL | undefined {
  const conditions: SQL[] = [isNull(locks.imeiReleasedAt)];
  if (filter.keyword) conditions.push(lockPatternMatch(bind('keyword', containsPattern(filter.keyword))));
  if (filter.online !== undefined) conditions.push(filter.online ? onlineSql : not(onlineSql));
  if (filter.liveState) conditions.push(liveStateIs(filter.liveState, wakeWindowMs));
  for (const kind of ATTENTION_KINDS) if (filter[kind]) conditions.push(ATTENTION_SQL[kind]);
  if (filter.serviceExpiring) conditions.push(SERVICE_EXPIRING_SQL);
  for (const field of VALUE_FIELDS) {
    const value = filter[field];
    if (value) conditions.push(eq(locks[field], bind(field, value)));
  }
  if (filter.groupId !== undefined) conditions.push(inGroupSql(bind('groupId', filter.groupId)));
  const state = filter.state ?? 'registered';
  if (state === 'registered') conditions.push(isNull(locks.decommissionedAt));
  else if (state !== 'all') conditions.push(sql`${stateSql} = ${state}`);
  return and(...conditions);
}

/** Filter fields matched by equality on the lock column of the same name. */
const VALUE_FIELDS = ['model', 'building', 'floor', 'room', 'firmwareVersion'] as const;

/**
 * The list's statement for the shape of `filter` (which fields are set, and the values that pick a
 * different condition: online, live state, attention kinds, state), its values as placeholders.
 */
function listStatementName(filter: LockFilter, wakeWindowMs: number): string {
  const set = Object.entries(filter).filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => (typeof value === 'boolean' || key === 'liveState' || key === 'state' ? `${key}=${value}` : key)).sort();
  return `lock_list:${wakeWindowMs}:${set.join(',')}`;
}

const recordColumns = (wakeWindowMs: number) => ({
  id: locks.id, imei: locks.imei, name: locks.name, room: roomSql,
  model: locks.model, vendor: locks.vendor, firmwareVersion: locks.firmwareVersion, battery: locks.battery, rssi: locks.rssi,
  snr: locks.snr, heartbeatIntervalS: locks.heartbeatIntervalS, lastHeartbeatAt: isoSql(locks.lastHeartbeatAt), online: onlineSql,
  liveState: liveStateSql(wakeWindowMs),
  building: locks.building, floor: locks.floor, roomPart: locks.room, state: stateSql, iccid: locks.iccid, note: locks.note,
  simulated: locks.simulated, createdAt: isoSql<string>(locks.createdAt), serviceEndAt: isoSql(locks.serviceEndAt),
});

const recordRows = (tx: Tx, where: SQL | undefined, limit: number, wakeWindowMs: number, offset = 0) =>
  tx.select(recordColumns(wakeWindowMs)).from(locks).where(where).orderBy(asc(locks.id)).limit(limit).offset(offset);
type RecordRow = Awaited<ReturnType<typeof recordRows>>[number];

/** A selected row as the contract's record. */
function toRecord(row: RecordRow): LockRecord {
  // Field by field: object rest/spread over 20 columns cost more than the query on the list's hot path.
  return {
    id: row.id, imei: row.imei, name: row.name, room: row.room, model: row.model, vendor: row.vendor || LOCK_VENDOR,
    firmwareVersion: row.firmwareVersion, battery: row.battery, rssi: row.rssi, snr: row.snr, heartbeatIntervalS: row.heartbeatIntervalS,
    online: row.online, liveState: row.liveState, lastHeartbeatAt: row.lastHeartbeatAt,
    location: { building: row.building, floor: row.floor, room: row.roomPart }, state: row.state, iccid: row.iccid, note: row.note,
    simulated: row.simulated, createdAt: row.createdAt, serviceEndAt: row.serviceEndAt,
  };
}

/** At most `limit` locks matching `filter` from the `offset`-th on, as contract records, ordered by id (exports, page by page). */
export async function selectLocks(tx: Tx, filter: LockFilter, limit: number, wakeWindowMs: number, offset = 0): Promise<LockRecord[]> {
  return (await recordRows(tx, lockWhere(filter, wakeWindowMs), limit, wakeWindowMs, offset)).map(toRecord);
}

/** The lock of `imei` (not released) as a contract record with its door state, or undefined. */
export async function lockRecordByImei(tx: Tx, imei: string, wakeWindowMs: number) {
  const [row] = await tx.select({ ...recordColumns(wakeWindowMs), doorState: locks.doorState, locked: locks.locked, config: locks.config })
    .from(locks).where(and(eq(locks.imei, imei), isNull(locks.imeiReleasedAt))).limit(1);
  if (!row) return undefined;
  const { doorState, locked, config, ...record } = row;
  return { record: toRecord(record), doorState, locked, config };
}

/**
 * A page of locks, ordered by id, with the filter's total counted by the same statement (one round
 * trip), up to LOG_COUNT_CAP (then `totalCapped`: no request counts 100,000 locks, db/count.ts). The
 * records come as the JSON text of the contract's LockRecord[], built by the database (http/json-text.ts).
 * The statement is prepared per filter shape (db/prepared.ts): the lock list is the console's most requested read.
 * With `remembered`, a total remembered there is answered without counting, and a counted one is remembered (list-totals.ts).
 */
export async function listLocks(tx: Tx, filter: LockFilter, current: number, size: number, wakeWindowMs: number,
  remembered?: RememberedTotal): Promise<JsonText<Page<LockRecord>>> {
  const offset = (current - 1) * size;
  const known = remembered?.totals.get(remembered.key);
  const [row] = filter.keyword
    // A keyword is planned with its value every time: a cached generic plan cannot know that the pattern
    // suits the trigram indexes and scanned all 100,000 locks instead (390 ms against 18 ms, bench/fleet.ts).
    ? await pageQuery(tx, lockWhere(filter, wakeWindowMs), wakeWindowMs, (page) => page.limit(size).offset(offset), !known)
    : await preparedOn(tx, `${listStatementName(filter, wakeWindowMs)}:${pagingShape(size, offset)}:${known ? 'page' : 'counted'}`, (statementName) =>
      pageQuery(tx, lockWhere(filter, wakeWindowMs, (field) => sql.placeholder(field)), wakeWindowMs, (page) => pagedForPrepare(page, size, offset), !known)
        .prepare(statementName)).execute({ ...filter, limit: size, offset });
  const counted = known ?? cappedTotal(row?.total ?? 0);
  if (!known) remembered?.totals.set(remembered.key, counted);
  const { total, totalCapped } = counted;
  // Keys in Page's order, as JSON.stringify wrote `{ records, ...total, current, size }`.
  return new JsonText(`{"records":${row?.records ?? '[]'},"total":${total}${totalCapped ? ',"totalCapped":true' : ''},"current":${current},"size":${size}}`);
}

/** A record's `location` object (jsonObjectLateral), joined to the page's rows. */
const recordLocation = jsonObjectLateral('location_row', { building: locks.building, floor: locks.floor, room: locks.room });

/** One record's columns, keys in toRecord's order (the JSON object's keys). */
const recordJson = (wakeWindowMs: number) => {
  const c = recordColumns(wakeWindowMs);
  return jsonFields({ id: c.id, imei: c.imei, name: c.name, room: c.room, model: c.model,
    vendor: sql`coalesce(nullif(${c.vendor}, ''), ${sql.raw(`'${LOCK_VENDOR}'`)})`, firmwareVersion: c.firmwareVersion, battery: c.battery,
    rssi: c.rssi, snr: c.snr, heartbeatIntervalS: c.heartbeatIntervalS, online: c.online, liveState: c.liveState, lastHeartbeatAt: c.lastHeartbeatAt,
    location: recordLocation.json, state: c.state, iccid: c.iccid, note: c.note, simulated: c.simulated,
    createdAt: c.createdAt, serviceEndAt: c.serviceEndAt });
};

/**
 * One row: the records of the page `paged` cuts from the locks matching `where` (ordered by id) as JSON
 * text, and with `counted` the filter's total (capped; else null).
 */
function pageQuery(tx: Tx, where: SQL | undefined, wakeWindowMs: number, paged: (page: PageRecords) => PageRecords, counted: boolean) {
  const o = paged(pageRecords(tx, where, wakeWindowMs)).as('o');
  // The total as a sub-select, not `count(*) over ()`: the planner costs a window as if the LIMIT cut it
  // short and walks the id index through the whole data centre; the sub-select counts on the filter's index.
  const total = counted ? sql<number>`(select count(*) from (select 1 from ${locks} where ${where} limit ${sql.raw(String(LOG_COUNT_CAP + 1))}) as capped)` : sql<number>`null`;
  return tx.select({ records: jsonArraySql('o', o.id), total: total.mapWith(Number) }).from(o);
}

/** The page's select before its LIMIT: the record columns of the locks matching `where`, ordered by id. */
const pageRecords = (tx: Tx, where: SQL | undefined, wakeWindowMs: number) =>
  tx.select(recordJson(wakeWindowMs)).from(locks).crossJoinLateral(recordLocation.join).where(where).orderBy(asc(locks.id)).$dynamic();
type PageRecords = ReturnType<typeof pageRecords>;

/** Lock facts for its command queue (awake: an uplink within the last `wakeWindowMs` ms); 404 when not in the tenant. */
export async function queueHead(tx: Tx, lockId: number, wakeWindowMs: number) {
  const [lock] = await tx.select({
    id: locks.id, imei: locks.imei, alwaysOnline: locks.alwaysOnline, lastUplinkAt: locks.lastUplinkAt,
    awake: sql<boolean>`${locks.alwaysOnline} or coalesce(${locks.lastUplinkAt} > now() - make_interval(secs => ${wakeWindowMs / 1000}), false)`,
    nextWakeAt: nextWakeSql,
  }).from(locks).where(eq(locks.id, lockId));
  if (!lock) throw new ApiError('NOT_FOUND');
  return { lockId: lock.id, imei: lock.imei, alwaysOnline: lock.alwaysOnline, awake: lock.awake, lastUplinkAt: iso(lock.lastUplinkAt), nextWakeAt: iso(lock.nextWakeAt) };
}
