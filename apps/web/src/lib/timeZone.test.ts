import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTime, inZone, setTimeZone, zoneOffset, zoneOffsetMinutes } from './timeZone';

const ZONES = ['Asia/Shanghai', 'UTC', 'America/New_York', 'Europe/London', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham'];
/** Instants around daylight-saving changes (both hemispheres), a leap day and the epoch's first second. */
const INSTANTS = ['2026-03-08T06:59:59Z', '2026-03-08T07:00:00Z', '2026-11-01T05:59:59.999Z', '2026-11-01T06:00:00Z',
  '2026-03-29T00:59:59Z', '2026-03-29T01:00:00Z', '2026-10-25T00:30:00Z', '2026-04-05T02:45:00Z', '2028-02-29T23:59:59Z', '1970-01-01T00:00:00Z'];

describe('formatTime in the data centre zone', () => {
  afterEach(() => setTimeZone('Asia/Shanghai'));

  it('agrees with dayjs tz for every format and zone, across daylight-saving changes', () => {
    for (const zone of ZONES) {
      setTimeZone(zone);
      for (const at of INSTANTS) {
        for (const format of ['YYYY-MM-DD HH:mm:ss', 'MM-DD HH:mm', 'HH:mm', 'YYYY-MM-DD', 'Z']) {
          expect(formatTime(at, format), `${zone} ${at} ${format}`).toBe(dayjs(at).tz(zone).format(format));
        }
        expect(zoneOffsetMinutes(Date.parse(at), zone)).toBe(inZone(at).utcOffset());
      }
      expect(zoneOffset()).toBe(`UTC${inZone().format('Z')}`);
    }
  });

  it('shows — for no value and keeps dayjs wording for an unreadable one', () => {
    expect(formatTime(null)).toBe('—');
    expect(formatTime('')).toBe('—');
    expect(formatTime('not a time')).toBe('Invalid Date');
  });

  it('reads numbers as epoch milliseconds and Dates as instants', () => {
    expect(formatTime(Date.UTC(2026, 0, 1, 16, 0, 0))).toBe('2026-01-02 00:00:00');
    expect(formatTime(new Date('2026-06-30T15:59:59.500Z'))).toBe('2026-06-30 23:59:59');
  });
});
