/**
 * 节假日日历 (tables holiday_calendars, holiday_entries, lock_holiday_schedules, owned by this
 * module): calendars and their scope, applying a calendar to the locks of its scope, deleting one (its
 * holiday schedules are cleared from the locks), and the per-lock view. Every function takes the
 * caller's tenant transaction. Errors: 404 for an id not in the data centre, 409 CONFLICT for a
 * duplicate name; per-lock refusals (QUEUE_FULL, a schedule still syncing) are reported per lock.
 */
import type { HolidayCalendarRecord, holidayCalendarSaveBody, Page } from '@iot/contract';
import { and, asc, count, eq, ilike, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { commands, holidayCalendars, holidayEntries, lockHolidaySchedules, locks } from '../../db/schema.js';
import { containsPattern, iso } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';
import { type LockResult, perLock } from '../credential/bulk.js';
import type { Actor } from '../credential/ops.js';
import { groupOptions } from '../lockGroup/groups.js';
import { reconcileLock } from './apply.js';
import { scopeLockIds } from './repo.js';

/** A page of calendars by name, each with its entries and its schedules on locks by state. */
export async function listCalendars(tx: Executor, q: { keyword?: string; current: number; size: number }): Promise<Page<HolidayCalendarRecord>> {
  const where = q.keyword ? ilike(holidayCalendars.name, containsPattern(q.keyword)) : undefined;
  const [total] = await tx.select({ n: count() }).from(holidayCalendars).where(where);
  // Spelled out: inside a subquery drizzle would leave both sides' columns unqualified.
  const rows = await tx.select({
    row: holidayCalendars,
    entries: sql<number>`(select count(*) from holiday_entries e where e.calendar_id = holiday_calendars.id)`.mapWith(Number),
    normal: sql<number>`(select count(*) from lock_holiday_schedules s where s.calendar_id = holiday_calendars.id and s.sync_state = 'normal')`.mapWith(Number),
    failed: sql<number>`(select count(*) from lock_holiday_schedules s where s.calendar_id = holiday_calendars.id and s.sync_state like '%\\_failed')`.mapWith(Number),
    all: sql<number>`(select count(*) from lock_holiday_schedules s where s.calendar_id = holiday_calendars.id)`.mapWith(Number),
  }).from(holidayCalendars).where(where).orderBy(asc(holidayCalendars.name)).limit(q.size).offset((q.current - 1) * q.size);
  const groups = new Map((await groupOptions(tx)).map((group) => [group.id, group.name]));
  const records = rows.map(({ row, entries, normal, failed, all }) => ({
    id: row.id, name: row.name, buildings: row.buildings, groupIds: row.groupIds, groupNames: row.groupIds.flatMap((id) => groups.get(id) ?? []),
    entries, lockSchedules: { normal, failed, pending: all - normal - failed }, updatedAt: iso(row.updatedAt),
  }));
  return { records, total: total?.n ?? 0, current: q.current, size: q.size };
}

/** Buildings with locks and the lock groups of the data centre. */
export async function scopeOptions(tx: Executor) {
  const buildings = await tx.selectDistinct({ building: locks.building }).from(locks)
    .where(and(ne(locks.building, ''), isNull(locks.decommissionedAt))).orderBy(asc(locks.building));
  return { buildings: buildings.map((row) => row.building), groups: (await groupOptions(tx)).map(({ id, name }) => ({ id, name })) };
}

/** The calendar of `id`, locked for update unless `read` (a GET reads without a transaction); 404 otherwise. */
export async function lockedCalendar(tx: Executor, id: number, read = false) {
  const query = tx.select().from(holidayCalendars).where(eq(holidayCalendars.id, id));
  const [row] = read ? await query : await query.for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Adds or renames / re-scopes a calendar (nothing is sent until `apply`). */
export async function saveCalendar(tx: Executor, tenantId: number, body: z.output<typeof holidayCalendarSaveBody>): Promise<{ id: number }> {
  const known = new Set((await groupOptions(tx)).map((group) => group.id));
  const unknown = body.groupIds.find((id) => !known.has(id));
  if (unknown !== undefined) throw new ApiError('NOT_FOUND', [{ field: 'body.groupIds', message: { 'zh-CN': `分组 ${unknown} 不存在`, 'en-US': `There is no group ${unknown}` } }]);
  const values = { name: body.name, buildings: [...new Set(body.buildings)], groupIds: [...new Set(body.groupIds)], updatedAt: new Date() };
  try {
    if (body.id === undefined) {
      const [row] = await tx.insert(holidayCalendars).values({ tenantId, ...values }).returning({ id: holidayCalendars.id });
      return { id: row?.id as number };
    }
    await lockedCalendar(tx, body.id);
    await tx.update(holidayCalendars).set(values).where(eq(holidayCalendars.id, body.id));
    return { id: body.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('CONFLICT', [{ field: 'body.name', message: { 'zh-CN': `日历 ${body.name} 已存在`, 'en-US': `A calendar named ${body.name} exists` } }]);
    throw error;
  }
}

/** The locks a calendar reaches now or did when last applied. */
async function affectedLocks(tx: Executor, tenantId: number, calendar: { id: number; buildings: string[]; groupIds: number[] }) {
  const held = await tx.selectDistinct({ lockId: lockHolidaySchedules.lockId }).from(lockHolidaySchedules).where(eq(lockHolidaySchedules.calendarId, calendar.id));
  const ids = [...new Set([...(await scopeLockIds(tx, tenantId, calendar)), ...held.map((row) => row.lockId)])];
  return ids.map((id) => ({ id, lockId: id }));
}

/** Reconciles the calendar's locks (apply.ts), one savepoint per lock. */
export async function applyCalendar(tx: Executor, actor: Actor, id: number): Promise<{ locks: LockResult[] }> {
  const calendar = await lockedCalendar(tx, id);
  const locks = await perLock(tx, await affectedLocks(tx, actor.tenantId, calendar), 'holiday', (sp, lockId) => reconcileLock(sp, actor, lockId));
  return { locks };
}

/** Deletes a calendar and its entries, then clears its schedules from the locks that hold them. */
export async function deleteCalendar(tx: Executor, actor: Actor, id: number): Promise<{ locks: LockResult[] }> {
  const calendar = await lockedCalendar(tx, id);
  const affected = await affectedLocks(tx, actor.tenantId, calendar);
  await tx.delete(holidayEntries).where(eq(holidayEntries.calendarId, id));
  await tx.delete(holidayCalendars).where(eq(holidayCalendars.id, id));
  const locks = await perLock(tx, affected, 'holiday', (sp, lockId) => reconcileLock(sp, actor, lockId));
  return { locks };
}

/** The holiday schedules on the locks of a calendar's scope (and those it left), by lock and index. */
export async function lockSchedules(tx: Executor, tenantId: number, q: { calendarId: number; current: number; size: number }) {
  const calendar = await lockedCalendar(tx, q.calendarId, true);
  const lockIds = (await affectedLocks(tx, tenantId, calendar)).map((row) => row.lockId);
  const where = and(inArray(lockHolidaySchedules.lockId, lockIds.length ? lockIds : [0]), or(eq(lockHolidaySchedules.calendarId, q.calendarId), isNull(lockHolidaySchedules.entryId)));
  const [total] = await tx.select({ n: count() }).from(lockHolidaySchedules).where(where);
  const rows = await tx.select({ row: lockHolidaySchedules, imei: locks.imei, lockName: locks.name, building: locks.building, floor: locks.floor, room: locks.room, lastCommandState: commands.state, lastResultCode: commands.resultCode })
    .from(lockHolidaySchedules).innerJoin(locks, eq(locks.id, lockHolidaySchedules.lockId)).leftJoin(commands, eq(commands.id, lockHolidaySchedules.lastCommandId)).where(where)
    .orderBy(asc(lockHolidaySchedules.lockId), asc(lockHolidaySchedules.holidayIndex)).limit(q.size).offset((q.current - 1) * q.size);
  const records = rows.map(({ row, imei, lockName, building, floor, room, lastCommandState, lastResultCode }) => ({
    id: row.id, lockId: row.lockId, imei, lockName, room: [building, floor, room].filter(Boolean).join('/'), index: row.holidayIndex, entryId: row.entryId,
    name: row.name, localStartTime: iso(row.localStartTime), localEndTime: iso(row.localEndTime), operatingMode: row.operatingMode, worksAs: row.worksAs,
    syncState: row.syncState, lastCommandState, lastResultCode,
  })) as never[];
  return { records, total: total?.n ?? 0, current: q.current, size: q.size };
}
