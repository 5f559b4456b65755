/**
 * Checks before a schedule is sent, answered in Matter DlStatus terms (409, zh and en):
 * RESOURCE_EXHAUSTED when the user already holds as many schedules of the kind as the device type
 * supports (NumberOfWeekDaySchedulesSupportedPerUser / NumberOfYearDaySchedulesSupportedPerUser),
 * SCHEDULE_DUPLICATE for a schedule the user already has, SCHEDULE_OCCUPIED for one overlapping another
 * of the same kind (a shared day and overlapping times; overlapping dates). Times: minutes since local
 * midnight (week-day), ms since epoch (year-day); ends exclusive.
 */
import { type AccessCapacity, maskOfDays, type ScheduleInput, WEEK_DAY_LABELS, type WeekDay, daysOfMask } from '@iot/contract';
import { ApiError } from '../../http/api-error.js';

/** A schedule in the units the table keeps. */
export type ScheduleValue =
  | { kind: 'weekDay'; daysMask: number; startMinute: number; endMinute: number }
  | { kind: 'yearDay'; start: number; end: number };

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const MINUTE_MS = 60_000;

/** An entered schedule in table units (year-day times to the minute). */
export function scheduleValue(input: ScheduleInput): ScheduleValue {
  if (input.kind === 'weekDay') return { kind: 'weekDay', daysMask: maskOfDays(input.days), startMinute: minuteOf(input.startTime), endMinute: minuteOf(input.endTime) };
  const floor = (iso: string) => Math.floor(Date.parse(iso) / MINUTE_MS) * MINUTE_MS;
  return { kind: 'yearDay', start: floor(input.localStartTime), end: floor(input.localEndTime) };
}

const same = (a: ScheduleValue, b: ScheduleValue) => JSON.stringify(a) === JSON.stringify(b);
function overlaps(a: ScheduleValue, b: ScheduleValue): boolean {
  if (a.kind === 'weekDay' && b.kind === 'weekDay') return (a.daysMask & b.daysMask) !== 0 && a.startMinute < b.endMinute && b.startMinute < a.endMinute;
  if (a.kind === 'yearDay' && b.kind === 'yearDay') return a.start < b.end && b.start < a.end;
  return false;
}

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
/** The schedule as an operator reads it: `周一、周二 09:00-12:00` / `2026-11-23 09:00 ~ 2026-11-24 09:00` (UTC+8). */
export function describe(value: ScheduleValue, language: 'zh-CN' | 'en-US'): string {
  if (value.kind === 'weekDay') {
    const days = daysOfMask(value.daysMask).map((day: WeekDay) => WEEK_DAY_LABELS[day][language]).join(language === 'zh-CN' ? '、' : ', ');
    return `${days} ${hhmm(value.startMinute)}-${hhmm(value.endMinute)}`;
  }
  const local = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
  return `${local(value.start)} ~ ${local(value.end)}`;
}

/**
 * Refuses `value` for a user holding `others` (same user, any kind; the row being modified left out),
 * with the device type's `access` capacity.
 */
export function checkSchedule(value: ScheduleValue, others: readonly ScheduleValue[], access: AccessCapacity): void {
  const ofKind = others.filter((other) => other.kind === value.kind);
  const capacity = value.kind === 'weekDay' ? access.weekDaySchedulesPerUser : access.yearDaySchedulesPerUser;
  if (ofKind.length >= capacity) {
    throw new ApiError('RESOURCE_EXHAUSTED', [{ field: 'body.schedule', message: {
      'zh-CN': `该用户的${value.kind === 'weekDay' ? '每周' : '日期'}时间表已达门锁上限（${capacity} 条）`,
      'en-US': `The user already has the lock's maximum of ${capacity} ${value.kind === 'weekDay' ? 'week-day' : 'year-day'} schedule(s)`,
    } }]);
  }
  const duplicate = ofKind.find((other) => same(other, value));
  if (duplicate) {
    throw new ApiError('SCHEDULE_DUPLICATE', [{ field: 'body.schedule', message: {
      'zh-CN': `该用户已有相同的时间表：${describe(duplicate, 'zh-CN')}`, 'en-US': `The user already has this schedule: ${describe(duplicate, 'en-US')}`,
    } }]);
  }
  const overlap = ofKind.find((other) => overlaps(other, value));
  if (overlap) {
    throw new ApiError('SCHEDULE_OCCUPIED', [{ field: 'body.schedule', message: {
      'zh-CN': `与该用户已有的时间表重叠：${describe(overlap, 'zh-CN')}`, 'en-US': `Overlaps a schedule the user has: ${describe(overlap, 'en-US')}`,
    } }]);
  }
}
