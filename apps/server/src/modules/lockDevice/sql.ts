/**
 * SQL pieces on the lock rows (table `locks`, owned by this module) for every query that shows or
 * searches locks beside its own rows (logs, commands, credentials, configuration): one room text,
 * one set of lock columns, one keyword filter, so what a list shows is what its search finds.
 */
import { ONLINE_HEARTBEAT_FACTOR } from '@iot/contract';
import { or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { containsPattern } from '../../db/sql.js';
import { locks } from '../../db/schema.js';

/** "Building/floor/room" without empty parts (as every list shows it), e.g. `A/101` when floor is empty. */
export const roomSql = sql<string>`concat_ws('/', nullif(${locks.building}, ''), nullif(${locks.floor}, ''), nullif(${locks.room}, ''))`;

/** Lock columns selected with every row that names its lock (joined on the row's lock_id). */
export const lockColumns = { imei: locks.imei, lockName: locks.name, room: roomSql };

/** The lock matches `keyword` (contains, case-insensitive) in its IMEI, name or room text (roomSql). */
export function lockKeyword(keyword: string): SQL {
  return lockPatternMatch(containsPattern(keyword));
}

/** The lock's IMEI, name or room text matches the ILIKE `pattern` (a value, or a prepared statement's placeholder). */
export function lockPatternMatch(pattern: string | Placeholder): SQL {
  return or(sql`${locks.imei} ilike ${pattern}`, sql`${locks.name} ilike ${pattern}`, sql`${roomSql} ilike ${pattern}`) as SQL;
}

/** SQL boolean: the lock is online now (last heartbeat younger than ONLINE_HEARTBEAT_FACTOR x its heartbeat interval). */
export const onlineSql = sql<boolean>`coalesce(${locks.lastHeartbeatAt} > now() - make_interval(secs => ${locks.heartbeatIntervalS} * ${sql.raw(String(ONLINE_HEARTBEAT_FACTOR))}), false)`;
