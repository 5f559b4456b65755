/**
 * SQL pieces on the lock rows (table `locks`, owned by this module) for every query that shows or
 * searches locks beside its own rows (logs, commands, credentials, configuration): one room text,
 * one set of lock columns, one keyword filter, so what a list shows is what its search finds.
 */
import { ONLINE_HEARTBEAT_FACTOR } from '@iot/contract';
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
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

/**
 * The lock's IMEI, name or room text matches the ILIKE `pattern` (a value, or a prepared statement's
 * placeholder). Asked of the view lock_search (migration 0029: the owner's view of the tenant's locks,
 * its room_text is roomSql's text): under row-level security on locks itself ILIKE (not leakproof) is
 * never an index condition and every lock of the data centre is read; through the view the planner
 * may use the trigram indexes (a few matches) or hash the matching ids (many).
 */
export function lockPatternMatch(pattern: string | Placeholder): SQL {
  return sql`${locks.id} in (select s.id from lock_search s where s.imei ilike ${pattern} or s.name ilike ${pattern} or s.room_text ilike ${pattern})`;
}

/** SQL boolean: the lock is online now (last heartbeat younger than ONLINE_HEARTBEAT_FACTOR x its heartbeat interval). */
export const onlineSql = sql<boolean>`coalesce(${locks.lastHeartbeatAt} > now() - make_interval(secs => ${locks.heartbeatIntervalS} * ${sql.raw(String(ONLINE_HEARTBEAT_FACTOR))}), false)`;
