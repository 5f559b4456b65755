/**
 * One time-zone rule for the whole console: every time shown, and every time picked, is in
 * the data centre's zone (the server's user info says it; Asia/Shanghai until it has), whatever the
 * browser's own zone. Date pickers hold the wall-clock time the operator sees, so a picked value is
 * read in the data centre's zone (fromPicker) and a stored instant is shown there (toPicker).
 */
import { DEFAULT_TIME_ZONE } from '@iot/contract';
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

let zone: string = DEFAULT_TIME_ZONE;
const WALL = 'YYYY-MM-DD HH:mm:ss';

/** The data centre's zone (IANA name). */
export const getTimeZone = (): string => zone;

/** Sets the data centre's zone (from the user info). */
export function setTimeZone(next: string): void {
  zone = next;
}

type When = string | number | Date | Dayjs;

/** `when` (default now) in the data centre's zone. */
export const inZone = (when?: When): Dayjs => (when === undefined ? dayjs() : dayjs(when)).tz(zone);

const wallFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The zone's UTC offset (minutes) at the instant `ms`, read through one cached Intl.DateTimeFormat per
 * zone: dayjs's tz() builds a new formatter on every call (toLocaleString with a timeZone), which
 * cost a long list ~190 ms of main thread per render.
 */
export function zoneOffsetMinutes(ms: number, timeZone: string = zone): number {
  let formatter = wallFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    wallFormatters.set(timeZone, formatter);
  }
  const part = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const { type, value } of formatter.formatToParts(ms)) if (type in part) part[type as keyof typeof part] = Number(value);
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  return Math.round((wall - (ms - (((ms % 1000) + 1000) % 1000))) / 60000);
}

/**
 * `YYYY-MM-DD HH:mm:ss` (or `format`) in the data centre's zone; — when empty. The wall clock is
 * formatted as UTC shifted by the zone's offset; formats with an offset, zone or epoch token (Z z X x)
 * go through dayjs's tz().
 */
export function formatTime(value: string | number | Date | null | undefined, format = WALL): string {
  if (value === null || value === undefined || value === '') return '—';
  const instant = dayjs(value);
  if (!instant.isValid() || /[zZXx]/.test(format)) return inZone(value).format(format);
  const ms = instant.valueOf();
  return dayjs.utc(ms + zoneOffsetMinutes(ms) * 60000).format(format);
}

/** A picker's value (the wall-clock time the operator chose) as the instant it means in the data centre's zone. */
export const fromPicker = (picked: Dayjs): Dayjs => dayjs.tz(picked.format(WALL), zone);

/** An instant as a picker's value: the wall-clock time of the data centre's zone. */
export const toPicker = (when?: When): Dayjs => dayjs(inZone(when).format(WALL));

/** The UTC offset of the data centre's zone now, e.g. `UTC+08:00`. */
export function zoneOffset(): string {
  const minutes = zoneOffsetMinutes(Date.now());
  const size = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${String(Math.floor(size / 60)).padStart(2, '0')}:${String(size % 60).padStart(2, '0')}`;
}
