/**
 * 节假日日历: holiday calendars per data centre, as data the operator imports (CSV / Excel,
 * the lock import's machinery) or edits: public holidays (from / to dates, with the Matter
 * OperatingMode the locks take meanwhile; `vacation` = no user access) and China's 调休 working days
 * (a weekend day worked: week-day schedules run as on `worksAs`). A calendar applies to chosen
 * buildings and lock groups; `apply` puts its coming entries on every lock in scope as Matter
 * HolidaySchedules (downlink holidaySchedule; per-lock sync states; up to the device type's capacity,
 * nearest first). Dates are the locks' local dates (China Standard Time), end date inclusive.
 */
import { z } from 'zod';
import { OPERATING_MODES, WEEK_DAYS } from '../access/matter.js';
import type { LocalizedText } from '../i18n.js';
import { multiLockResult } from './credential.js';
import { SYNC_STATES } from './credentialLog.js';
import { COMMAND_STATES } from '../protocol/index.js';
import { exportResponse, lockRefRecord } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { int4Id, keyword, text } from './input.js';
import { IMPORT_MAX_BYTES } from './lockImport.js';
import { calendarDay } from './time.js';
import { localized as h } from '../i18n.js';

export const HOLIDAY_ENTRY_KINDS = ['holiday', 'workday'] as const;
export type HolidayEntryKind = (typeof HOLIDAY_ENTRY_KINDS)[number];
/** A local date, bounded like every time of the API (time.ts TIME_RANGE). */
const date = calendarDay;

export const holidayCalendarRecord = z.object({
  id: z.number().int(), name: z.string(),
  /** Scope: buildings (as 门锁信息 names them) and lock groups. */
  buildings: z.array(z.string()), groupIds: z.array(z.number().int()), groupNames: z.array(z.string()),
  entries: z.number().int(),
  /** Holiday schedules of this calendar on locks, by sync state. */
  lockSchedules: z.object({ normal: z.number().int(), pending: z.number().int(), failed: z.number().int() }),
  updatedAt: z.string(),
});
export type HolidayCalendarRecord = z.infer<typeof holidayCalendarRecord>;

export const holidayCalendarSaveBody = z.strictObject({
  id: int4Id.optional(), name: text().trim().min(1).max(64),
  buildings: z.array(text().trim().min(1).max(64)).max(200).default([]),
  groupIds: z.array(int4Id).max(200).default([]),
});

const entryFields = {
  kind: z.enum(HOLIDAY_ENTRY_KINDS), name: text().trim().min(1).max(64), startDate: date, endDate: date,
  /** Holidays: the locks' operating mode (default vacation); working days: normal. */
  operatingMode: z.enum(OPERATING_MODES).optional(),
  /** Working days: whose week-day schedules apply (default monday). */
  worksAs: z.enum(WEEK_DAYS).optional(),
};
const ordered = (v: { startDate: string; endDate: string }) => v.endDate >= v.startDate;
const orderIssue = { message: 'endDate must not be before startDate', path: ['endDate'] };
export const holidayEntryBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add'), calendarId: int4Id, ...entryFields }).refine(ordered, orderIssue),
  z.strictObject({ action: z.literal('modify'), id: int4Id, ...entryFields }).refine(ordered, orderIssue),
  z.strictObject({ action: z.literal('delete'), id: int4Id }),
]);

export const holidayEntryRecord = z.object({
  id: z.number().int(), calendarId: z.number().int(), kind: z.enum(HOLIDAY_ENTRY_KINDS), name: z.string(),
  startDate: z.string(), endDate: z.string(), operatingMode: z.enum(OPERATING_MODES), worksAs: z.enum(WEEK_DAYS).nullable(),
});
export type HolidayEntryRecord = z.infer<typeof holidayEntryRecord>;

/** The holiday schedules one lock holds, with their sync state. */
export const lockHolidayRecord = z.object({
  id: z.number().int(), ...lockRefRecord, index: z.number().int(), entryId: z.number().int().nullable(), name: z.string(),
  localStartTime: z.string(), localEndTime: z.string(), operatingMode: z.enum(OPERATING_MODES), worksAs: z.enum(WEEK_DAYS).nullable(),
  syncState: z.enum(SYNC_STATES),
  /** The last command's state and the lock's answer (failed rows say why: failureReasonText). */
  lastCommandState: z.enum(COMMAND_STATES).nullable(), lastResultCode: z.number().int().nullable(),
});

/** Import columns, template order; a file may use either language's header or the key. */
export const HOLIDAY_IMPORT_COLUMNS = ['startDate', 'endDate', 'kind', 'name', 'operatingMode', 'worksAs'] as const;
export type HolidayImportColumn = (typeof HOLIDAY_IMPORT_COLUMNS)[number];
export const HOLIDAY_IMPORT_REQUIRED: readonly HolidayImportColumn[] = ['startDate', 'kind', 'name'];
export const HOLIDAY_IMPORT_HEADERS: Record<HolidayImportColumn, LocalizedText> = {
  startDate: h('开始日期', 'Start date'), endDate: h('结束日期', 'End date'), kind: h('类型（假日/调休上班）', 'Kind (holiday/workday)'),
  name: h('名称', 'Name'), operatingMode: h('运行模式', 'Operating mode'), worksAs: h('按星期几上班', 'Works as'),
};
/** Cell words for the kind column besides the keys. */
export const HOLIDAY_KIND_WORDS: Record<HolidayEntryKind, readonly string[]> = { holiday: ['假日', '放假', '节假日'], workday: ['调休上班', '上班', '调休', '补班'] };
export const holidayImportProblem = z.object({ row: z.number().int(), column: z.enum(HOLIDAY_IMPORT_COLUMNS), reason: z.object({ 'zh-CN': z.string(), 'en-US': z.string() }) });
/** Entries added, entries replaced (same kind and start date), and the rows refused (nothing is written when any is). */
/** The import form's text fields beside its file: the calendar to import into. */
export const holidayImportFields = z.strictObject({ calendarId: int4Id });
export const holidayImportResult = z.object({ added: z.number().int(), replaced: z.number().int(), problems: z.array(holidayImportProblem) });

const T = 'token' as const;
const A = 'HOLIDAY_CALENDAR' as const;
export const holidayCalendarEndpoints = {
  list: endpoint({ method: 'GET', path: '/iot/v1/holidayCalendar/list', access: A, kind: T, query: pageQuery.extend({ keyword: keyword().optional() }), response: pageOf(holidayCalendarRecord) }),
  /** Buildings and lock groups of the data centre, to choose a calendar's scope or a schedule template's locks. */
  scopeOptions: endpoint({ method: 'GET', path: '/iot/v1/holidayCalendar/scopeOptions', access: [A, 'VOUCHER_SCHEDULE_MANAGE'], kind: T,
    response: z.object({ buildings: z.array(z.string()), groups: z.array(z.object({ id: z.number().int(), name: z.string() })) }) }),
  save: endpoint({ method: 'POST', path: '/iot/v1/holidayCalendar/save', access: A, kind: T, body: holidayCalendarSaveBody, response: z.object({ id: z.number().int() }),
    action: { label: h('保存节假日日历', 'Save holiday calendar'), target: ['id', 'name'] } }),
  /** Deletes the calendar and clears its holiday schedules from the locks. */
  delete: endpoint({ method: 'POST', path: '/iot/v1/holidayCalendar/delete', access: A, kind: T, body: z.strictObject({ id: int4Id }), response: multiLockResult,
    action: { label: h('删除节假日日历', 'Delete holiday calendar'), target: ['id'] } }),
  entries: endpoint({ method: 'GET', path: '/iot/v1/holidayCalendar/entries', access: A, kind: T, query: z.object({ calendarId: int4Id }), response: z.array(holidayEntryRecord) }),
  entry: endpoint({ method: 'POST', path: '/iot/v1/holidayCalendar/entry', access: A, kind: T, body: holidayEntryBody, response: z.object({ id: z.number().int() }),
    action: { label: h('编辑节假日', 'Edit holiday entry'), target: ['id', 'calendarId'] } }),
  importTemplate: endpoint({ method: 'GET', path: '/iot/v1/holidayCalendar/importTemplate', access: A, kind: T,
    query: z.object({ format: z.enum(['csv', 'xlsx']).default('xlsx') }), response: exportResponse }),
  /** multipart: field `calendarId`, then the file `file`. */
  import: endpoint({ method: 'POST', path: '/iot/v1/holidayCalendar/import', access: A, kind: 'multipart', response: holidayImportResult,
    upload: { fields: holidayImportFields, maxBytes: IMPORT_MAX_BYTES },
    action: { label: h('导入节假日', 'Import holidays') } }),
  /** Puts the calendar's coming entries on every lock in scope (and clears what no longer belongs). */
  apply: endpoint({ method: 'POST', path: '/iot/v1/holidayCalendar/apply', access: A, kind: T, body: z.strictObject({ id: int4Id }), response: multiLockResult,
    action: { label: h('下发节假日日历', 'Apply holiday calendar'), target: ['id'] } }),
  /** The holiday schedules on the locks of the calendar's scope, with their sync states. */
  lockSchedules: endpoint({ method: 'GET', path: '/iot/v1/holidayCalendar/lockSchedules', access: A, kind: T,
    query: pageQuery.extend({ calendarId: int4Id }), response: pageOf(lockHolidayRecord) }),
};
