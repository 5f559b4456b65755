/**
 * Query pieces shared by the device-activity logs: resolving the lock filter to a lock id
 * first (so the planner sees `lock_id = $1` and uses the (lock, time) indexes), time ranges and the
 * keyword on the lock (modules/lockDevice/sql.ts: the same room text the lists show). Run inside the
 * tenant transaction.
 */
import type { LogFilter } from '@iot/contract';
import { and, eq, gte, lte, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { lockColumns, lockKeyword } from '../lockDevice/sql.js';

/** Where-clause of the lock named by `lockId` and/or `imei`; undefined when neither is given. */
function lockNamed(filter: Pick<LogFilter, 'lockId' | 'imei'>): SQL | undefined {
  if (filter.lockId === undefined && !filter.imei) return undefined;
  return and(filter.lockId !== undefined ? eq(locks.id, filter.lockId) : undefined, filter.imei ? eq(locks.imei, filter.imei) : undefined);
}

/**
 * The id of the lock named by `lockId` / `imei` in the tenant: undefined when neither is given, null
 * when no such lock is visible (the caller returns an empty result).
 */
export async function lockIdOf(tx: Tx, filter: Pick<LogFilter, 'lockId' | 'imei'>): Promise<number | null | undefined> {
  const named = lockNamed(filter);
  if (!named) return undefined;
  const [row] = await tx.select({ id: locks.id }).from(locks).where(named);
  return row?.id ?? null;
}

/** The lock (id, imei, name, room) named by `lockId` / `imei`; 404 NOT_FOUND when the tenant has none. */
export async function requireLock(tx: Tx, filter: Pick<LogFilter, 'lockId' | 'imei'>) {
  const named = lockNamed(filter);
  if (!named) throw new ApiError('NOT_FOUND');
  const [row] = await tx.select({ id: locks.id, ...lockColumns, intervalS: locks.heartbeatIntervalS }).from(locks).where(named);
  if (!row) throw new ApiError('NOT_FOUND');
  return { id: row.id, imei: row.imei, name: row.lockName, room: row.room, intervalS: row.intervalS };
}

/** The lock id as it goes into the SQL: the value itself, or a prepared statement's placeholder `lockId`. */
export type LogBind = (name: 'lockId', value: number) => number | Placeholder;
const inline: LogBind = (_name, value) => value;

/**
 * Conditions of the shared filters on a log table: its lock id column (= the resolved lock), its time
 * column (range), and the keyword on the joined lock (IMEI, name, room). With `bind`, the lock id may
 * become a placeholder.
 */
export function logConditions(filter: LogFilter, lockId: number | undefined, lockColumn: PgColumn, timeColumn: PgColumn, bind: LogBind = inline): SQL[] {
  const conditions: SQL[] = [];
  if (lockId !== undefined) conditions.push(eq(lockColumn, bind('lockId', lockId)));
  if (filter.startTime) conditions.push(gte(timeColumn, new Date(filter.startTime)));
  if (filter.endTime) conditions.push(lte(timeColumn, new Date(filter.endTime)));
  if (filter.keyword) conditions.push(lockKeyword(filter.keyword));
  return conditions;
}

/**
 * A prepared statement's filter shape (part of its key): every filter value but the lock's and the
 * cursor, which go in as placeholders; the logs' own filters and sort fields are enums and flags.
 */
export function filterShape(filter: LogFilter): [string, unknown][] {
  const { lockId: _id, imei: _imei, cursor: _cursor, ...rest } = filter as LogFilter & { cursor?: unknown };
  return Object.entries(rest).filter(([, value]) => value !== undefined).sort();
}
