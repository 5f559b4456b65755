/**
 * Entries of a holiday calendar: public holidays and 调休 working days, edited one by one
 * or imported from a CSV / Excel file (the shared spreadsheet reader, http/sheet.ts). Rules: end date
 * not before start, at most 366 days; a holiday takes an operating mode (default vacation: no user
 * access) and no `worksAs`; a working day runs the week-day schedules of `worksAs` (default monday)
 * in mode normal. Same kind and dates as an existing entry: 409 SCHEDULE_DUPLICATE; same kind and
 * overlapping dates: 409 SCHEDULE_OCCUPIED (Matter DlStatus duplicate / occupied). An import replaces
 * the entry of the same kind and start date, and writes nothing when any row is refused.
 */
import {
  HOLIDAY_IMPORT_COLUMNS, HOLIDAY_IMPORT_HEADERS, HOLIDAY_IMPORT_REQUIRED, HOLIDAY_KIND_WORDS, type HolidayImportColumn, type HolidayEntryKind, type HolidayEntryRecord,
  type holidayEntryBody, type holidayImportResult, IMPORT_MAX_ROWS, OPERATING_MODE_LABELS, OPERATING_MODES, type OperatingMode, WEEK_DAY_LABELS,
  WEEK_DAYS, type WeekDay,
  localized,
} from '@iot/contract';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { holidayCalendars, holidayEntries } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import type { SheetRow, SheetSpec } from '../../http/sheet.js';
import { lockedCalendar } from './calendars.js';

/** The import file's sheet (columns, headers in both languages, required columns, row limit). */
export const HOLIDAY_SHEET: SheetSpec<HolidayImportColumn> = { columns: HOLIDAY_IMPORT_COLUMNS, headers: HOLIDAY_IMPORT_HEADERS, required: HOLIDAY_IMPORT_REQUIRED, maxRows: IMPORT_MAX_ROWS };

type Body = z.output<typeof holidayEntryBody>;
type Fields = { kind: HolidayEntryKind; name: string; startDate: string; endDate: string; operatingMode?: OperatingMode; worksAs?: WeekDay };
type Problem = z.output<typeof holidayImportResult>['problems'][number];
const MAX_DAYS = 366;
const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
const field = (prefix: string, key: string) => `${prefix}.${key}`;

/** The entry's stored columns; throws a 400 naming the field of a rule it breaks. */
function normalize(fields: Fields, prefix = 'body') {
  if (fields.endDate < fields.startDate) throw fieldError(field(prefix, 'endDate'), '结束日期不能早于开始日期', 'The end date may not be before the start date');
  if (days(fields.startDate, fields.endDate) > MAX_DAYS) throw fieldError(field(prefix, 'endDate'), `一条最多 ${MAX_DAYS} 天`, `An entry spans at most ${MAX_DAYS} days`);
  if (fields.kind === 'holiday') {
    if (fields.worksAs) throw fieldError(field(prefix, 'worksAs'), '假日不能指定按星期几上班', 'A holiday has no works-as day');
    return { kind: fields.kind, name: fields.name, startDate: fields.startDate, endDate: fields.endDate, operatingMode: fields.operatingMode ?? 'vacation', worksAs: null };
  }
  if (fields.operatingMode && fields.operatingMode !== 'normal') throw fieldError(field(prefix, 'operatingMode'), '调休上班日的运行模式只能是正常', 'A working day runs in the normal mode');
  return { kind: fields.kind, name: fields.name, startDate: fields.startDate, endDate: fields.endDate, operatingMode: 'normal', worksAs: fields.worksAs ?? 'monday' };
}

/** 409 for a duplicate or overlapping entry of the same kind in the calendar (`except`: the entry being modified). */
async function checkOverlap(tx: Executor, calendarId: number, entry: ReturnType<typeof normalize>, except?: number): Promise<void> {
  const others = await tx.select().from(holidayEntries).where(and(eq(holidayEntries.calendarId, calendarId), eq(holidayEntries.kind, entry.kind),
    except === undefined ? undefined : ne(holidayEntries.id, except)));
  const same = others.find((o) => o.startDate === entry.startDate && o.endDate === entry.endDate);
  if (same) throw new ApiError('SCHEDULE_DUPLICATE', [{ field: 'body.startDate', message: { 'zh-CN': `已有相同日期的条目：${same.name}`, 'en-US': `An entry with the same dates exists: ${same.name}` } }]);
  const overlap = others.find((o) => o.startDate <= entry.endDate && entry.startDate <= o.endDate);
  if (overlap) throw new ApiError('SCHEDULE_OCCUPIED', [{ field: 'body.startDate', message: { 'zh-CN': `与已有条目日期重叠：${overlap.name}（${overlap.startDate} ~ ${overlap.endDate}）`, 'en-US': `Overlaps ${overlap.name} (${overlap.startDate} to ${overlap.endDate})` } }]);
}

const touch = (tx: Executor, calendarId: number) => tx.update(holidayCalendars).set({ updatedAt: sql`now()` }).where(eq(holidayCalendars.id, calendarId));

/** Adds, modifies or deletes one entry (nothing is sent until the calendar is applied). */
export async function operateEntry(tx: Executor, tenantId: number, body: Body): Promise<{ id: number }> {
  if (body.action === 'add') {
    await lockedCalendar(tx, body.calendarId);
    const entry = normalize(body);
    await checkOverlap(tx, body.calendarId, entry);
    const [row] = await tx.insert(holidayEntries).values({ tenantId, calendarId: body.calendarId, ...entry }).returning({ id: holidayEntries.id });
    await touch(tx, body.calendarId);
    return { id: row?.id as number };
  }
  const [row] = await tx.select().from(holidayEntries).where(eq(holidayEntries.id, body.id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  if (body.action === 'delete') await tx.delete(holidayEntries).where(eq(holidayEntries.id, row.id));
  else {
    const entry = normalize(body);
    await checkOverlap(tx, row.calendarId, entry, row.id);
    await tx.update(holidayEntries).set(entry).where(eq(holidayEntries.id, row.id));
  }
  await touch(tx, row.calendarId);
  return { id: row.id };
}

/** The entries of a calendar by start date. */
export async function listEntries(tx: Executor, calendarId: number): Promise<HolidayEntryRecord[]> {
  await lockedCalendar(tx, calendarId, true);
  const rows = await tx.select().from(holidayEntries).where(eq(holidayEntries.calendarId, calendarId)).orderBy(asc(holidayEntries.startDate), asc(holidayEntries.id));
  return rows.map(({ tenantId: _t, ...row }) => row as HolidayEntryRecord);
}

/** A cell as one of `values` (key, or a label / word in either language); undefined when empty. */
function pick<V extends string>(cell: string, values: readonly V[], words: (value: V) => readonly string[]): V | undefined | null {
  const text = cell.trim().toLowerCase();
  if (text === '') return undefined;
  return values.find((value) => value.toLowerCase() === text || words(value).some((word) => word.toLowerCase() === text)) ?? null;
}
const dateOf = (cell: string) => {
  const text = cell.trim().replace(/[/.]/g, '-').replace(/-(\d)(?=-|$)/g, '-0$1');
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)) ? text : undefined;
};
const problem = (row: number, column: Problem['column'], zh: string, en: string): Problem => ({ row, column, reason: localized(zh, en) });

/** Reads an import file's rows (http/sheet.ts, read before the transaction) into entries, or the problems of its rows. */
function readEntries(rows: SheetRow<HolidayImportColumn>[]): { entries: (ReturnType<typeof normalize> & { row: number })[]; problems: Problem[] } {
  const entries: (ReturnType<typeof normalize> & { row: number })[] = [];
  const problems: Problem[] = [];
  for (const { row, cells } of rows) {
    const kind = pick(cells.kind, ['holiday', 'workday'] as const, (k) => HOLIDAY_KIND_WORDS[k]);
    const mode = pick(cells.operatingMode, OPERATING_MODES, (m) => Object.values(OPERATING_MODE_LABELS[m]));
    const worksAs = pick(cells.worksAs, WEEK_DAYS, (d) => [...Object.values(WEEK_DAY_LABELS[d]), `星期${'日一二三四五六'[WEEK_DAYS.indexOf(d)]}`]);
    const startDate = dateOf(cells.startDate);
    const endDate = cells.endDate ? dateOf(cells.endDate) : startDate;
    if (!startDate) problems.push(problem(row, 'startDate', '日期须为 YYYY-MM-DD', 'Dates are YYYY-MM-DD'));
    if (cells.endDate && !endDate) problems.push(problem(row, 'endDate', '日期须为 YYYY-MM-DD', 'Dates are YYYY-MM-DD'));
    if (!kind) problems.push(problem(row, 'kind', '类型须为 假日 或 调休上班', 'The kind is holiday or workday'));
    if (!cells.name) problems.push(problem(row, 'name', '请填写名称', 'The name is missing'));
    if (mode === null) problems.push(problem(row, 'operatingMode', '未知的运行模式', 'Unknown operating mode'));
    if (worksAs === null) problems.push(problem(row, 'worksAs', '未知的星期', 'Unknown day of the week'));
    if (!startDate || !endDate || !kind || !cells.name || mode === null || worksAs === null) continue;
    try {
      entries.push({ row, ...normalize({ kind, name: cells.name.slice(0, 64), startDate, endDate, operatingMode: mode, worksAs }, 'row') });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const first = error.errors?.[0];
      problems.push({ row, column: (first?.field.split('.')[1] ?? 'startDate') as Problem['column'], reason: first?.message ?? { 'zh-CN': '无效', 'en-US': 'Invalid' } });
    }
  }
  return { entries, problems };
}

/** Imports a file into a calendar (see the module comment); refused rows are answered and nothing is written. */
export async function importEntries(tx: Executor, tenantId: number, calendarId: number, rows: SheetRow<HolidayImportColumn>[]) {
  await lockedCalendar(tx, calendarId);
  const { entries, problems } = readEntries(rows);
  if (problems.length > 0) return { added: 0, replaced: 0, problems };
  let replaced = 0;
  for (const entry of entries) {
    const { row, ...values } = entry;
    const deleted = await tx.delete(holidayEntries).where(and(eq(holidayEntries.calendarId, calendarId), eq(holidayEntries.kind, values.kind), eq(holidayEntries.startDate, values.startDate)))
      .returning({ id: holidayEntries.id });
    replaced += deleted.length;
    try {
      await checkOverlap(tx, calendarId, values);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const message = error.errors?.[0]?.message ?? { 'zh-CN': '日期重叠', 'en-US': 'Overlapping dates' };
      throw new ApiError(error.code, [{ field: 'body.file', message: { 'zh-CN': `第 ${row} 行：${message['zh-CN']}`, 'en-US': `Row ${row}: ${message['en-US']}` } }]);
    }
    await tx.insert(holidayEntries).values({ tenantId, calendarId, ...values });
  }
  await touch(tx, calendarId);
  return { added: entries.length - replaced, replaced, problems: [] };
}
