/**
 * Every time a request names, one schema each:
 * - `isoTime`: an instant, ISO 8601 with an offset (2025-01-31T08:00:00+08:00);
 * - `calendarDay`: a calendar day YYYY-MM-DD that exists;
 * both bounded to TIME_RANGE, so a far-range time (a year 0, or one that a negative offset carries past
 * 9999) is a 400 naming the field (FIELD_MESSAGES TIME_OUT_OF_RANGE) instead of a PostgreSQL
 * "date/time field value out of range" (SQLSTATE 22008). `timeOrder` refuses a range whose start lies
 * after its end, on the end field. JSON Schema (OpenAPI) shows the bounds as formatMinimum/formatMaximum.
 */
import { z } from 'zod';
import { DAY_INVALID, TIME_ISO, TIME_ORDER, TIME_OUT_OF_RANGE } from './input.js';

/**
 * The instants a request may name, UTC: from the Unix epoch to the end of 2199, well inside what
 * PostgreSQL's timestamptz (4713 BC - 294276 AD) and JavaScript's Date hold, and beyond any lock's life.
 */
export const TIME_RANGE = { min: '1970-01-01T00:00:00.000Z', max: '2199-12-31T23:59:59.999Z' } as const;
const MIN_MS = Date.parse(TIME_RANGE.min);
const MAX_MS = Date.parse(TIME_RANGE.max);

/** True when `value` parses and lies within TIME_RANGE; true too when it does not parse (the format check says so). */
function inRange(value: string): boolean {
  const ms = Date.parse(value);
  return Number.isNaN(ms) || (ms >= MIN_MS && ms <= MAX_MS);
}

/** An instant: ISO 8601 date-time with an offset (Z or ±hh:mm), within TIME_RANGE. */
export const isoTime = z.iso.datetime({ offset: true, error: TIME_ISO })
  .refine(inRange, { error: TIME_OUT_OF_RANGE })
  .meta({ formatMinimum: TIME_RANGE.min, formatMaximum: TIME_RANGE.max });

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day YYYY-MM-DD that exists (no 2025-02-30), within TIME_RANGE's years. */
export const calendarDay = z.string().regex(DAY, { error: DAY_INVALID })
  .refine((value) => {
    if (!DAY.test(value)) return true; // the pattern's issue says it
    const ms = Date.parse(value);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
  }, { error: DAY_INVALID })
  .refine((value) => inRange(`${value}T00:00:00Z`), { error: TIME_OUT_OF_RANGE })
  .meta({ format: 'date', formatMinimum: TIME_RANGE.min.slice(0, 10), formatMaximum: TIME_RANGE.max.slice(0, 10) });

interface TimeRange { startTime?: string; endTime?: string }
/**
 * The refinement of a query with `startTime` and `endTime`: the end may not be before the start
 * (`query.refine(...timeOrder)`); the issue names endTime.
 */
export const timeOrder: [(value: object) => boolean, { error: string; path: PropertyKey[] }] = [
  (value) => {
    const { startTime, endTime } = value as TimeRange;
    return !startTime || !endTime || Date.parse(startTime) <= Date.parse(endTime);
  },
  { error: TIME_ORDER, path: ['endTime'] },
];
