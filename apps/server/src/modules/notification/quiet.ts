/** Quiet hours of a notification rule: `HH:MM` to `HH:MM` local time, possibly spanning midnight. */

/** `now` as `HH:MM` (24 h) in IANA time zone `timeZone`. */
export function localClock(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}`;
}

/**
 * True when `now` falls within quiet hours [start, end) in `timeZone`; start after end spans midnight
 * (22:00-07:00); null or equal bounds: no quiet hours.
 */
export function inQuietHours(start: string | null, end: string | null, timeZone: string, now: Date): boolean {
  if (!start || !end || start === end) return false;
  const clock = localClock(now, timeZone);
  return start < end ? clock >= start && clock < end : clock >= start || clock < end;
}
