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

/** `YYYY-MM-DD HH:mm:ss` (or `format`) in the data centre's zone; — when empty. */
export function formatTime(value: string | number | Date | null | undefined, format = WALL): string {
  return value === null || value === undefined || value === '' ? '—' : inZone(value).format(format);
}

/** A picker's value (the wall-clock time the operator chose) as the instant it means in the data centre's zone. */
export const fromPicker = (picked: Dayjs): Dayjs => dayjs.tz(picked.format(WALL), zone);

/** An instant as a picker's value: the wall-clock time of the data centre's zone. */
export const toPicker = (when?: When): Dayjs => dayjs(inZone(when).format(WALL));

/** The UTC offset of the data centre's zone now, e.g. `UTC+08:00`. */
export const zoneOffset = (): string => `UTC${inZone().format('Z')}`;
