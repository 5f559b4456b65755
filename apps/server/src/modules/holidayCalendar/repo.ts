/**
 * Reads of the holiday tables: an entry's local dates as instants, the holiday rules a
 * lock holds (for who can open at T), a calendar's scope as lock ids, and the per-lock list. Every
 * function takes the caller's tenant transaction (row-level security) or the owner connection.
 */
import { type HolidayRule, LOCK_UTC_OFFSET_MINUTES, type OperatingMode, type WeekDay } from '@iot/contract';
import { and, eq, inArray, notInArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { holidayCalendars, lockHolidaySchedules, locks } from '../../db/schema.js';
import { resolveDeviceTarget } from '../lockGroup/target.js';

const DAY_MS = 86_400_000;
/** Local midnight (lock time zone) of a YYYY-MM-DD date, ms since epoch. */
export const localMidnight = (date: string) => Date.parse(`${date}T00:00:00Z`) - LOCK_UTC_OFFSET_MINUTES * 60_000;
/** An entry's dates as a holiday schedule's from / to (end date inclusive, so to = the next local midnight). */
export const entryWindow = (entry: { startDate: string; endDate: string }) => ({ start: localMidnight(entry.startDate), end: localMidnight(entry.endDate) + DAY_MS });

/** The holiday rules the lock holds: every row but one being added or whose add failed. */
export async function heldHolidays(tx: Executor, lockId: number): Promise<HolidayRule[]> {
  return (await heldHolidaysOf(tx, eq(lockHolidaySchedules.lockId, lockId))).map((held) => held.rule);
}

/**
 * The holiday schedules held by the locks of `imeis` (all tenants: the owner connection), as
 * heldHolidays counts them, with their index on the lock; for the simulated locks' own tables at start
 * (demo/keypad.ts).
 */
export function heldHolidaysOfLocks(tx: Executor, imeis: readonly string[]): Promise<{ imei: string; index: number; rule: HolidayRule }[]> {
  return imeis.length === 0 ? Promise.resolve([]) : heldHolidaysOf(tx, inArray(locks.imei, [...imeis]));
}

async function heldHolidaysOf(tx: Executor, where: SQL) {
  const rows = await tx.select({ row: lockHolidaySchedules, imei: locks.imei }).from(lockHolidaySchedules).innerJoin(locks, eq(locks.id, lockHolidaySchedules.lockId))
    .where(and(where, notInArray(lockHolidaySchedules.syncState, ['adding', 'add_failed'])));
  return rows.map(({ row, imei }) => ({
    imei, index: row.holidayIndex,
    rule: { start: row.localStartTime.getTime(), end: row.localEndTime.getTime(), operatingMode: row.operatingMode as OperatingMode, ...(row.worksAs ? { worksAs: row.worksAs as WeekDay } : {}) } as HolidayRule,
  }));
}

/** The locks of a calendar's scope (its buildings and groups), ascending. */
export async function scopeLockIds(tx: Executor, tenantId: number, calendar: { buildings: string[]; groupIds: number[] }): Promise<number[]> {
  const ids = new Set<number>();
  for (const building of calendar.buildings) for (const id of (await resolveDeviceTarget(tx, tenantId, { filter: { building } })).lockIds) ids.add(id);
  for (const groupId of calendar.groupIds) {
    const resolved = await resolveDeviceTarget(tx, tenantId, { groupId }).catch(() => ({ lockIds: [] as number[] })); // a deleted group reaches no lock
    for (const id of resolved.lockIds) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** Every calendar of the data centre whose scope includes the lock. */
export async function calendarsOfLock(tx: Executor, tenantId: number, lockId: number) {
  const calendars = await tx.select().from(holidayCalendars).where(eq(holidayCalendars.tenantId, tenantId));
  const covering = [];
  for (const calendar of calendars) if ((await scopeLockIds(tx, tenantId, calendar)).includes(lockId)) covering.push(calendar);
  return covering;
}
