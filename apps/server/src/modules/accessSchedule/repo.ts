/**
 * Reading schedules as contract records: joined with their lock, lock user and last
 * command; and the plain rows other modules read (who can open at T). Every function takes the
 * caller's tenant transaction (row-level security) or the owner connection.
 */
import { type AccessScheduleRecord, type accessScheduleListQuery, daysOfMask, type Page, type UserType } from '@iot/contract';
import { and, count, desc, eq, ilike, inArray, notInArray, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { accessSchedules, commands, locks, lockUsers } from '../../db/schema.js';
import { containsPattern, iso, sortOrder } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';
import { lockKeyword, roomSql } from '../lockDevice/sql.js';
import type { ScheduleValue } from './rules.js';

type Row = typeof accessSchedules.$inferSelect;
const hhmm = (minute: number | null) => (minute === null ? null : `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`);

/** The schedule a row holds, in rule units. */
export function valueOfRow(row: Pick<Row, 'kind' | 'daysMask' | 'startMinute' | 'endMinute' | 'localStartTime' | 'localEndTime'>): ScheduleValue {
  if (row.kind === 'weekDay') return { kind: 'weekDay', daysMask: row.daysMask ?? 0, startMinute: row.startMinute ?? 0, endMinute: row.endMinute ?? 0 };
  return { kind: 'yearDay', start: new Date(row.localStartTime as Date).getTime(), end: new Date(row.localEndTime as Date).getTime() };
}

const columns = {
  row: accessSchedules, imei: locks.imei, lockName: locks.name, room: roomSql,
  userSlot: lockUsers.userSlot, userName: lockUsers.name, userType: lockUsers.userType, lastCommandState: commands.state,
  lastResultCode: commands.resultCode,
};

/** A page of schedules in `order` (default newest first). */
export async function selectSchedules(tx: Executor, where: SQL | undefined, current = 1, size = 500, order: SQL[] = [desc(accessSchedules.id)]): Promise<Page<AccessScheduleRecord>> {
  const from = () => tx.select(columns).from(accessSchedules).innerJoin(locks, eq(locks.id, accessSchedules.lockId))
    .innerJoin(lockUsers, eq(lockUsers.id, accessSchedules.lockUserId)).leftJoin(commands, eq(commands.id, accessSchedules.lastCommandId));
  const [total] = await tx.select({ n: count() }).from(accessSchedules).innerJoin(locks, eq(locks.id, accessSchedules.lockId))
    .innerJoin(lockUsers, eq(lockUsers.id, accessSchedules.lockUserId)).where(where);
  const rows = await from().where(where).orderBy(...order).limit(size).offset((current - 1) * size);
  const records = rows.map(({ row, ...joined }): AccessScheduleRecord => ({
    id: row.id, lockId: row.lockId, imei: joined.imei, lockName: joined.lockName, room: joined.room, lockUserId: row.lockUserId,
    userSlot: joined.userSlot, userName: joined.userName, userType: joined.userType as UserType, kind: row.kind as AccessScheduleRecord['kind'],
    index: row.scheduleIndex, days: row.daysMask === null ? [] : daysOfMask(row.daysMask), startTime: hhmm(row.startMinute), endTime: hhmm(row.endMinute),
    localStartTime: iso(row.localStartTime), localEndTime: iso(row.localEndTime), syncState: row.syncState as AccessScheduleRecord['syncState'],
    lastCommandId: row.lastCommandId, lastCommandState: joined.lastCommandState as AccessScheduleRecord['lastCommandState'],
    lastResultCode: joined.lastResultCode,
    createdBy: row.createdBy, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt),
  }));
  return { records, total: total?.n ?? 0, current, size };
}

/** One schedule; 404 when not in the tenant. */
export async function scheduleRecord(tx: Executor, id: number): Promise<AccessScheduleRecord> {
  const found = (await selectSchedules(tx, eq(accessSchedules.id, id))).records[0];
  if (!found) throw new ApiError('NOT_FOUND');
  return found;
}

/** The list of 时间表管理. */
export function listSchedules(tx: Executor, q: z.output<typeof accessScheduleListQuery>): Promise<Page<AccessScheduleRecord>> {
  const p = q.keyword ? containsPattern(q.keyword) : undefined;
  const where = and(...[
    q.lockId !== undefined ? eq(accessSchedules.lockId, q.lockId) : undefined, q.imei ? eq(locks.imei, q.imei) : undefined,
    q.lockUserId !== undefined ? eq(accessSchedules.lockUserId, q.lockUserId) : undefined, q.kind ? eq(accessSchedules.kind, q.kind) : undefined,
    q.syncState ? eq(accessSchedules.syncState, q.syncState) : undefined, q.userType ? eq(lockUsers.userType, q.userType) : undefined,
    p && q.keyword ? or(ilike(lockUsers.name, p), ilike(lockUsers.phone, p), lockKeyword(q.keyword)) : undefined,
  ].filter(Boolean));
  return selectSchedules(tx, where, q.current, q.size, sortOrder(q, { createdAt: accessSchedules.createdAt, updatedAt: accessSchedules.updatedAt }, accessSchedules.id, [desc(accessSchedules.id)]));
}

/**
 * The schedules the lock holds for its users (for who can open at T): every row but one being added or
 * whose add failed, by lock user id.
 */
export async function heldSchedules(tx: Executor, lockId: number): Promise<Map<number, ScheduleValue[]>> {
  const byUser = new Map<number, ScheduleValue[]>();
  for (const held of await heldSchedulesOf(tx, eq(accessSchedules.lockId, lockId))) byUser.set(held.lockUserId, [...(byUser.get(held.lockUserId) ?? []), held.value]);
  return byUser;
}

/** A schedule a lock holds: its lock (IMEI), the user's slot on it, its index in the user's table of its kind. */
export interface HeldSchedule {
  imei: string;
  lockUserId: number;
  userSlot: number;
  index: number;
  value: ScheduleValue;
}

/**
 * The schedules held by the locks of `imeis` (all tenants: the owner connection), as heldSchedules
 * counts them; for the simulated locks' own tables at start (demo/keypad.ts).
 */
export function heldSchedulesOfLocks(tx: Executor, imeis: readonly string[]): Promise<HeldSchedule[]> {
  return imeis.length === 0 ? Promise.resolve([]) : heldSchedulesOf(tx, inArray(locks.imei, [...imeis]));
}

async function heldSchedulesOf(tx: Executor, where: SQL): Promise<HeldSchedule[]> {
  const rows = await tx.select({ row: accessSchedules, imei: locks.imei, userSlot: lockUsers.userSlot }).from(accessSchedules)
    .innerJoin(locks, eq(locks.id, accessSchedules.lockId)).innerJoin(lockUsers, eq(lockUsers.id, accessSchedules.lockUserId))
    .where(and(where, notInArray(accessSchedules.syncState, ['adding', 'add_failed'])));
  return rows.map(({ row, imei, userSlot }) => ({ imei, lockUserId: row.lockUserId, userSlot, index: row.scheduleIndex, value: valueOfRow(row) }));
}
