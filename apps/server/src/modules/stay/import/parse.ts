/**
 * The pure half of the booking import (contract api/stayImport.ts): rows of text cells ->
 * stays to book, each checked with the contract's stayAddBody, and every row's problems (column +
 * reason in both languages). Rows with the same reference are one stay (one row per guest); overlaps
 * between stays of the file are found here, the database's rules in check.ts.
 */
import { FIELD_MESSAGES, type LocalizedText, isoTime, STAY_KINDS, type StayAddBody, type StayImportColumn, type StayKind, stayAddBody, localized as h } from '@iot/contract';
import type { z } from 'zod';
import type { SheetRow } from '../../../http/sheet.js';

/** A row's problem as the dry run lists it. */
export interface RowError {
  column: StayImportColumn;
  reason: LocalizedText;
}
/** A stay of the file: its rows (first row = the one that names room and times), its booking and its interval (ms). */
export interface FileStay {
  rows: number[];
  body: StayAddBody;
  checkInAt: number;
  checkOutAt: number;
}
/** Problems by row number; a row absent has none. */
export type RowErrors = Map<number, RowError[]>;

const KIND_WORDS: Record<StayKind, string[]> = { hotelNight: ['酒店', '酒店住宿', 'hotel'], shortRental: ['短租'], longLease: ['长租', 'lease'] };
const STAY_FIELDS = ['building', 'floor', 'room', 'kind', 'checkInAt', 'checkOutAt', 'bufferBeforeMinutes', 'bufferAfterMinutes'] as const;
const WALL = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** Adds a problem to `errors`. */
export function addError(errors: RowErrors, row: number, column: StayImportColumn, reason: LocalizedText): void {
  errors.set(row, [...(errors.get(row) ?? []), { column, reason }]);
}

/** Offset of `timeZone` from UTC at the instant `ms`, ms (Intl's own zone data). */
function zoneOffset(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    .formatToParts(new Date(ms)).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year as number, (parts.month as number) - 1, parts.day, parts.hour, parts.minute, parts.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * A time cell, ms since epoch: an ISO 8601 time with an offset (contract isoTime), or a wall-clock time
 * "YYYY-MM-DD HH:mm[:ss]" (also with "/" or "T", no offset) in the data centre's `timeZone`. undefined when it is neither or not a real date.
 */
export function parseTime(cell: string, timeZone: string): number | undefined {
  const wall = WALL.exec(cell);
  if (!wall) return isoTime.safeParse(cell).success ? Date.parse(cell) : undefined;
  const [year, month, day, hour, minute, second = 0] = wall.slice(1).map((part) => Number(part ?? 0)) as number[];
  const asUtc = Date.UTC(year as number, (month as number) - 1, day, hour, minute, second);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== (month as number) - 1 || check.getUTCDate() !== day || (hour as number) > 23) return undefined;
  const first = asUtc - zoneOffset(asUtc, timeZone);
  return asUtc - zoneOffset(first, timeZone);
}

/** A kind cell: the key or its Chinese / English word; '' is a hotel night; undefined when unknown. */
export function parseKind(cell: string): StayKind | undefined {
  if (cell === '') return 'hotelNight';
  const word = cell.toLowerCase();
  return STAY_KINDS.find((kind) => kind.toLowerCase() === word || KIND_WORDS[kind].includes(word));
}

/** A zod issue as a reason in both languages ("zh / en" messages are split). */
function reasonOf(issue: z.core.$ZodIssue): LocalizedText {
  const known = FIELD_MESSAGES[issue.message];
  if (known) return known;
  const [zh, en] = issue.message.split(' / ');
  if (zh && en) return h(zh, en);
  if (issue.code === 'too_small') return h('必填', 'is required');
  if (issue.code === 'too_big') return h(`过长或过大（最多 ${String(issue.maximum)}）`, `is too long or too large (at most ${String(issue.maximum)})`);
  return h('无效', 'is invalid');
}

const GUEST_COLUMN: Record<string, StayImportColumn> = { name: 'guestName', mobile: 'guestMobile', idCardNumber: 'guestIdCard' };
/** The column and row of a stayAddBody issue. */
function placeOf(issue: z.core.$ZodIssue, rows: number[]): [number, StayImportColumn] {
  const [first, second, third] = issue.path as (string | number)[];
  if (first === 'room') return [rows[0] as number, second as StayImportColumn];
  if (first === 'guests') return typeof second === 'number' ? [rows[second] ?? (rows[0] as number), GUEST_COLUMN[String(third)] ?? 'guestName'] : [rows[10] ?? (rows[0] as number), 'guestName'];
  return [rows[0] as number, (first as StayImportColumn | undefined) ?? 'checkInAt'];
}

const minutesOf = (cell: string) => (cell === '' ? undefined : /^\d+$/.test(cell) ? Number(cell) : Number.NaN);

/** The stays of `rows` (times in `timeZone` when they carry no offset) and every row's problems; a stay with any problem is left out. */
export function parseBookings(rows: readonly SheetRow<StayImportColumn>[], timeZone: string): { stays: FileStay[]; errors: RowErrors } {
  const errors: RowErrors = new Map();
  const groups = new Map<string, SheetRow<StayImportColumn>[]>();
  rows.forEach((line, index) => {
    const key = line.cells.reference === '' ? `#${index}` : `ref:${line.cells.reference}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  });
  const stays: FileStay[] = [];
  for (const group of groups.values()) {
    const [head] = group as [SheetRow<StayImportColumn>];
    const { cells } = head;
    for (const line of group.slice(1)) {
      for (const column of STAY_FIELDS) {
        if (line.cells[column] !== '' && line.cells[column] !== cells[column]) addError(errors, line.row, column, h(`与第 ${head.row} 行（同一预订单号）不一致`, `differs from row ${head.row} (same reference)`));
      }
    }
    const kind = parseKind(cells.kind);
    if (!kind) addError(errors, head.row, 'kind', h('须为 酒店、短租 或 长租', 'must be hotelNight, shortRental or longLease'));
    const times = { checkInAt: parseTime(cells.checkInAt, timeZone), checkOutAt: parseTime(cells.checkOutAt, timeZone) };
    for (const column of ['checkInAt', 'checkOutAt'] as const) {
      if (times[column] === undefined) addError(errors, head.row, column, h('时间格式须为 2026-01-31 14:00（数据中心时区）或带时区的 ISO 8601', 'must be a time such as 2026-01-31 14:00 (data centre time) or ISO 8601 with an offset'));
    }
    const iso = (ms: number | undefined, fallback: string) => (ms === undefined ? fallback : new Date(ms).toISOString());
    const buffers = { bufferBeforeMinutes: minutesOf(cells.bufferBeforeMinutes), bufferAfterMinutes: minutesOf(cells.bufferAfterMinutes) };
    for (const column of ['bufferBeforeMinutes', 'bufferAfterMinutes'] as const) {
      if (Number.isNaN(buffers[column])) addError(errors, head.row, column, h('须为 0 至 1440 的整数（分钟）', 'must be a whole number of minutes, 0 to 1440'));
    }
    const parsed = stayAddBody.safeParse({
      room: { building: cells.building, floor: cells.floor, room: cells.room }, kind: kind ?? 'hotelNight',
      // A time already refused above stands in as the widest one, so zod adds no second problem for it.
      checkInAt: iso(times.checkInAt, '1970-01-01T00:00:00Z'), checkOutAt: iso(times.checkOutAt, '2199-01-01T00:00:00Z'),
      bufferBeforeMinutes: Number.isNaN(buffers.bufferBeforeMinutes) ? undefined : buffers.bufferBeforeMinutes,
      bufferAfterMinutes: Number.isNaN(buffers.bufferAfterMinutes) ? undefined : buffers.bufferAfterMinutes,
      reference: cells.reference || undefined,
      guests: group.map(({ cells: guest }) => ({ name: guest.guestName, mobile: guest.guestMobile, idCardNumber: guest.guestIdCard || undefined })),
    });
    const rowNumbers = group.map((line) => line.row);
    if (!parsed.success) for (const issue of parsed.error.issues) addError(errors, ...placeOf(issue, rowNumbers), reasonOf(issue));
    if (parsed.success && rowNumbers.every((row) => !errors.has(row))) {
      stays.push({ rows: rowNumbers, body: parsed.data, checkInAt: times.checkInAt as number, checkOutAt: times.checkOutAt as number });
    }
  }
  return { stays: withoutFileOverlaps(stays, errors), errors };
}

/** Stays of one room overlapping an earlier row's stay of the file are refused on checkInAt; returns the rest. */
function withoutFileOverlaps(stays: FileStay[], errors: RowErrors): FileStay[] {
  const kept: FileStay[] = [];
  for (const stay of stays) {
    const room = JSON.stringify(stay.body.room);
    const other = kept.find((seen) => JSON.stringify(seen.body.room) === room && seen.checkInAt < stay.checkOutAt && stay.checkInAt < seen.checkOutAt);
    if (other) addError(errors, stay.rows[0] as number, 'checkInAt', h(`与第 ${other.rows[0]} 行的入住时段重叠（同一房间）`, `overlaps the stay of row ${other.rows[0]} (same room)`));
    else kept.push(stay);
  }
  return kept;
}
