/**
 * Shared pieces of the device-activity logs: 上报日志, 心跳日志, 报警日志, 开锁日志, 门锁日志.
 * Every list is paged on the server (`current`, `size`, or deep by `cursor`: api/cursor.ts), filtered by a time range (ISO 8601 with
 * offset), a lock (lockId or IMEI) or a keyword (IMEI, lock name or room), and exportable as CSV or
 * Excel (`format=csv|xlsx`, at most LOG_EXPORT_MAX rows, newest first).
 */
import { z } from 'zod';
import { int4Id, keyword, timeZoneName } from './input.js';
import { isoTime, timeOrder } from './time.js';
import { imeiSchema } from '../protocol/index.js';
import { pageQuery, sortFields } from './envelope.js';
import { cursorField } from './cursor.js';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** A time series (battery, RSSI) holds at most about this many points; longer ranges are averaged per bucket. */
export const SERIES_MAX_POINTS = 500;

/**
 * The download fields of every export: `format` (csv | xlsx, default csv) and `timeZone` (IANA name;
 * default the data centre's): times are written in that zone, as `YYYY-MM-DD HH:mm:ss` text
 * in CSV and as date cells in Excel.
 */
export const exportFields = {
  format: z.enum(EXPORT_FORMATS).default('csv'),
  timeZone: timeZoneName.optional(),
};

/** One lock, by id or by IMEI. */
export const lockRefFields = {
  lockId: int4Id.optional(),
  imei: imeiSchema.optional(),
};
/** Filters every log list shares. */
export const logFilterFields = {
  ...lockRefFields,
  /** Rows at or after (ISO 8601 with offset). */
  startTime: isoTime.optional(),
  /** Rows at or before (ISO 8601 with offset). */
  endTime: isoTime.optional(),
  /** Matches the lock's IMEI, name or room (substring, case-insensitive). */
  keyword: keyword().optional(),
};

const hasLock = (value: { lockId?: number; imei?: string }) => value.lockId !== undefined || value.imei !== undefined;
const lockIssue = { message: 'lockId or imei is required', path: ['lockId'] };

/**
 * The list query (paged) and the export query (format) of a log with `extra` filters, sorted on the
 * server by one of `sortable` (sortField, sortOrder; any other field is a 400; the export keeps the order).
 * With `paging` cursor (the high-volume logs, counted up to a cap) the list also takes `cursor`
 * (api/cursor.ts): in the default order it pages after that row instead of by offset (`current` is then
 * only the page number the response repeats); with a sortField it is ignored.
 */
export function logQueries<S extends z.ZodRawShape, const F extends readonly [string, ...string[]]>(extra: S, sortable: F, paging: 'offset' | 'cursor' = 'offset') {
  const sorting = sortFields(sortable);
  const cursor = paging === 'cursor' ? { cursor: cursorField.optional() } : {};
  return {
    list: pageQuery.extend({ ...logFilterFields, ...extra, ...sorting, ...cursor }).refine(...timeOrder),
    export: z.object({ ...logFilterFields, ...extra, ...sorting, ...exportFields }).refine(...timeOrder),
  };
}

/** Query of one lock over a time range (lockId or imei required; default range: the last 24 h). */
export const lockRangeQuery = z.object({ ...lockRefFields, startTime: isoTime.optional(), endTime: isoTime.optional() })
  .refine(hasLock, lockIssue).refine(...timeOrder);
export type LockRangeQuery = z.infer<typeof lockRangeQuery>;

/** Which lock a log row belongs to. */
export const lockRefRecord = {
  lockId: z.number().int(),
  imei: z.string(),
  lockName: z.string(),
  /** Building / floor / room. */
  room: z.string(),
};

/** An export download: text/csv (UTF-8 with BOM) or an .xlsx workbook; not enveloped. */
export const exportResponse = z.unknown();

/** Filters a log's export shares with its list (everything but paging and format). */
export type LogFilter = { [K in keyof typeof logFilterFields]?: z.output<(typeof logFilterFields)[K]> };
