/**
 * A rollout's gates for one lock at one moment (contract OTA_GATES): the time window in the rollout's
 * time zone, then battery, then signal. Pure functions.
 */
import type { OtaGate } from '@iot/contract';

const formats = new Map<string, Intl.DateTimeFormat>();

/** Local time of day `HH:mm` at `now` in IANA zone `timeZone`. */
export function localTime(now: Date, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  return format.format(now);
}

/** True when `time` (HH:mm) is in [start, end); a start after the end spans midnight. */
export function inWindow(time: string, start: string, end: string): boolean {
  return start <= end ? time >= start && time < end : time >= start || time < end;
}

export interface GateInput {
  /** %, null when never reported. */
  battery: number | null;
  /** dBm, null when never reported. */
  rssi: number | null;
  minBattery: number;
  minRssi: number;
  windowStart: string | null;
  windowEnd: string | null;
  timeZone: string;
}

/** The first gate the lock does not pass now, or null when it may be notified. */
export function closedGate(input: GateInput, now: Date): OtaGate | null {
  if (input.windowStart && input.windowEnd && !inWindow(localTime(now, input.timeZone), input.windowStart, input.windowEnd)) return 'window';
  if (input.battery === null || input.battery < input.minBattery) return 'battery';
  if (input.rssi === null || input.rssi < input.minRssi) return 'rssi';
  return null;
}
