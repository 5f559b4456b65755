/**
 * The lock side of the schedule downlinks (Matter DoorLock Set/Clear WeekDaySchedule,
 * YearDaySchedule, HolidaySchedule): `set` writes the schedule at its index (replacing one there),
 * `clear` removes it. An index beyond the device type's capacity is refused (SLOT_OUT_OF_RANGE, Matter
 * DlStatus invalidField); a schedule for a user the lock does not hold too (USER_NOT_FOUND). Like a
 * Matter lock may, a schedule set for an unrestricted user makes it schedule-restricted.
 */
import { protocol, userTypeAfterSchedule } from '@iot/contract';
import type { LockState } from './lock-state.js';

/** Parsed data of a downlink type. */
export type DataOf<T extends protocol.DownlinkType> = ReturnType<(typeof protocol.downlinkData)[T]['parse']>;

const RESULT = protocol.RESULT_CODES;
export type Outcome = { code: number; detail?: string; slot?: number };
const ok = (detail: string): Outcome => ({ code: RESULT.OK, detail });
const fail = (code: number, detail: string): Outcome => ({ code, detail });

/** Applies a weekDaySchedule downlink. */
export function weekDaySchedule(state: LockState, data: DataOf<'weekDaySchedule'>): Outcome {
  const user = state.users.get(data.userSlot);
  if (!user) return fail(RESULT.USER_NOT_FOUND, 'no such user');
  if (data.index >= state.access.weekDaySchedulesPerUser) return fail(RESULT.SLOT_OUT_OF_RANGE, 'week-day schedule index out of range');
  if (data.action === 'clear') return user.weekDay.delete(data.index) ? ok('week-day schedule cleared') : fail(RESULT.NOT_FOUND, 'no such schedule');
  user.weekDay.set(data.index, {
    daysMask: data.daysMask as number,
    startMinute: (data.startHour as number) * 60 + (data.startMinute as number),
    endMinute: (data.endHour as number) * 60 + (data.endMinute as number),
  });
  user.userType = userTypeAfterSchedule(user.userType);
  return ok('week-day schedule set');
}

/** Applies a yearDaySchedule downlink. */
export function yearDaySchedule(state: LockState, data: DataOf<'yearDaySchedule'>): Outcome {
  const user = state.users.get(data.userSlot);
  if (!user) return fail(RESULT.USER_NOT_FOUND, 'no such user');
  if (data.index >= state.access.yearDaySchedulesPerUser) return fail(RESULT.SLOT_OUT_OF_RANGE, 'year-day schedule index out of range');
  if (data.action === 'clear') return user.yearDay.delete(data.index) ? ok('year-day schedule cleared') : fail(RESULT.NOT_FOUND, 'no such schedule');
  user.yearDay.set(data.index, { start: data.localStartTime as number, end: data.localEndTime as number });
  user.userType = userTypeAfterSchedule(user.userType);
  return ok('year-day schedule set');
}

/** Applies a holidaySchedule downlink. */
export function holidaySchedule(state: LockState, data: DataOf<'holidaySchedule'>): Outcome {
  if (data.index >= state.access.holidaySchedules) return fail(RESULT.SLOT_OUT_OF_RANGE, 'holiday schedule index out of range');
  if (data.action === 'clear') return state.holidays.delete(data.index) ? ok('holiday schedule cleared') : fail(RESULT.NOT_FOUND, 'no such schedule');
  state.holidays.set(data.index, {
    start: data.localStartTime as number, end: data.localEndTime as number, operatingMode: data.operatingMode ?? 'normal',
    ...(data.worksAs ? { worksAs: data.worksAs } : {}),
  });
  return ok('holiday schedule set');
}
