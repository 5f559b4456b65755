/**
 * 时间表管理: week-day and year-day schedules of lock users (Matter DoorLock WeekDaySchedule,
 * YearDaySchedule), several per user up to the device type's capacity, kept in sync with the lock like
 * credentials (adding -> normal | add_failed ...; retry / discard). Week-day times are the lock's local
 * time (China Standard Time) to the minute, end after start on the same day; year-day times ISO 8601.
 * Refusals in Matter DlStatus terms: 409 SCHEDULE_DUPLICATE (same schedule already held),
 * SCHEDULE_OCCUPIED (overlaps another schedule of the user), RESOURCE_EXHAUSTED (capacity reached).
 * Bulk: applyTemplate gives every matching lock user of a device target the same schedules.
 */
import { z } from 'zod';
import { SCHEDULE_KINDS, USER_TYPES, WEEK_DAYS } from '../access/matter.js';
import { COMMAND_STATES } from '../protocol/index.js';
import { multiLockResult, rowIdBody } from './credential.js';
import { SYNC_STATES } from './credentialLog.js';
import { lockRefFields, lockRefRecord } from './deviceLog.js';
import { isoTime } from './time.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery, sortFields } from './envelope.js';
import { int4Id, keyword, TIME_HHMM } from './input.js';
import { deviceTarget } from './lockGroup.js';
import { localized as label } from '../i18n.js';

/** A time of day HH:mm (00:00-23:59). */
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: TIME_HHMM });
const endAfterStart = { message: 'end must be after start', path: ['endTime'] };

export const weekDayScheduleInput = z.strictObject({
  kind: z.literal('weekDay'),
  days: z.array(z.enum(WEEK_DAYS)).min(1).max(7).refine((days) => new Set(days).size === days.length, { message: 'a day is listed twice' }),
  startTime: hhmm, endTime: hhmm,
}).refine((v) => v.endTime > v.startTime, endAfterStart);
export const yearDayScheduleInput = z.strictObject({ kind: z.literal('yearDay'), localStartTime: isoTime, localEndTime: isoTime })
  .refine((v) => Date.parse(v.localEndTime) > Date.parse(v.localStartTime), { ...endAfterStart, path: ['localEndTime'] });
/** One schedule as entered. */
export const scheduleInput = z.discriminatedUnion('kind', [weekDayScheduleInput, yearDayScheduleInput]);
export type ScheduleInput = z.input<typeof scheduleInput>;

/** A schedule of a lock user. */
export const accessScheduleRecord = z.object({
  id: z.number().int(), ...lockRefRecord,
  lockUserId: z.number().int(), userSlot: z.number().int(), userName: z.string(), userType: z.enum(USER_TYPES),
  kind: z.enum(SCHEDULE_KINDS),
  /** Position in the user's table of that kind on the lock (0-based; Matter index - 1). */
  index: z.number().int(),
  /** Week-day: days (Sunday first), HH:mm local; null / [] for a year-day schedule. */
  days: z.array(z.enum(WEEK_DAYS)), startTime: z.string().nullable(), endTime: z.string().nullable(),
  /** Year-day: ISO 8601 UTC; null for a week-day schedule. */
  localStartTime: z.string().nullable(), localEndTime: z.string().nullable(),
  syncState: z.enum(SYNC_STATES), lastCommandId: z.number().int().nullable(), lastCommandState: z.enum(COMMAND_STATES).nullable(),
  /** The lock's answer to the last command (failed rows say why: failureReasonText). */
  lastResultCode: z.number().int().nullable(),
  createdBy: z.string(), createdAt: z.string(), updatedAt: z.string(),
});
export type AccessScheduleRecord = z.infer<typeof accessScheduleRecord>;

/** add: to a lock user; modify: same kind; delete. The lock confirms asynchronously (syncState). */
export const accessScheduleBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add'), lockUserId: int4Id, schedule: scheduleInput }),
  z.strictObject({ action: z.literal('modify'), id: int4Id, schedule: scheduleInput }),
  z.strictObject({ action: z.literal('delete'), id: int4Id }),
]);

export const ACCESS_SCHEDULE_SORT_FIELDS = ['createdAt', 'updatedAt'] as const;
export const accessScheduleListQuery = pageQuery.extend({
  ...lockRefFields, lockUserId: int4Id.optional(), kind: z.enum(SCHEDULE_KINDS).optional(), syncState: z.enum(SYNC_STATES).optional(),
  userType: z.enum(USER_TYPES).optional(),
  /** Matches the user's name or phone, the lock's IMEI, name or room. */
  keyword: keyword().optional(), ...sortFields(ACCESS_SCHEDULE_SORT_FIELDS),
});

/**
 * Gives every lock user of `target`'s locks whose name or phone contains `userKeyword` (all users when
 * absent) and, if given, of `userType`, the `schedules`; with `replace` their schedules of those kinds
 * are cleared first. Per lock in its own savepoint: a lock that refuses reports its error.
 */
export const applyScheduleTemplateBody = z.strictObject({
  target: deviceTarget,
  userKeyword: keyword().optional(),
  userType: z.enum(USER_TYPES).optional(),
  schedules: z.array(scheduleInput).min(1).max(8),
  replace: z.boolean().default(true),
});

const T = 'token' as const;
const A = 'VOUCHER_SCHEDULE_MANAGE' as const;

export const accessScheduleEndpoints = {
  operate: endpoint({ method: 'POST', path: '/iot/v1/accessSchedule/operate', access: A, kind: T, body: accessScheduleBody, response: accessScheduleRecord,
    action: { label: label('时间表操作', 'Schedule operation'), target: ['id', 'lockUserId'] } }),
  list: endpoint({ method: 'GET', path: '/iot/v1/accessSchedule/list', access: A, kind: T, query: accessScheduleListQuery, response: pageOf(accessScheduleRecord) }),
  retry: endpoint({ method: 'POST', path: '/iot/v1/accessSchedule/retry', access: A, kind: T, body: rowIdBody, response: accessScheduleRecord,
    action: { label: label('重试同步时间表', 'Retry schedule sync'), target: ['id'] } }),
  discard: endpoint({ method: 'POST', path: '/iot/v1/accessSchedule/discard', access: A, kind: T, body: rowIdBody, response: z.object({ id: z.number().int() }),
    action: { label: label('放弃同步失败的时间表', 'Discard failed schedule'), target: ['id'] } }),
  applyTemplate: endpoint({ method: 'POST', path: '/iot/v1/accessSchedule/applyTemplate', access: A, kind: T, body: applyScheduleTemplateBody, response: multiLockResult,
    action: { label: label('批量应用时间表模板', 'Apply schedule template'), target: ['userKeyword'] } }),
};
