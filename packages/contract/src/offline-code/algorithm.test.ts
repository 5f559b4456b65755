import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LOCK_UTC_OFFSET_MINUTES } from '../access/decide.js';
import { deriveOfflineCodeKey, dynamicTruncation, hourPairIndex, offlineCode, offlineWindowBounds, type OfflineWindow, verifyOfflineCode } from './algorithm.js';

const KEY = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
const HOUR = 3_600_000;
const CST = LOCK_UTC_OFFSET_MINUTES; // China Standard Time, no daylight saving
/** 2026-12-01T02:00Z = 10:00 in Shanghai. */
const START_HOUR = Date.parse('2026-12-01T02:00:00Z') / HOUR;
/** 2026-12-01 as a Shanghai day since 1970-01-01. */
const DEC_1 = Math.floor((Date.parse('2026-12-01T00:00:00+08:00') + CST * 60_000) / 86_400_000);
const at = (iso: string) => Date.parse(iso);

describe('offline code algorithm (docs/offline-codes.md)', () => {
  it('truncates like RFC 4226 §5.3 (RFC 6238 appendix B, HMAC-SHA-256, T = 59 s -> 46119246)', () => {
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(1n);
    const hash = createHmac('sha256', Buffer.from('12345678901234567890123456789012')).update(counter).digest();
    expect(dynamicTruncation(hash, 8)).toBe('46119246');
  });

  it('matches the test vectors of docs/offline-codes.md', () => {
    expect([START_HOUR, DEC_1]).toEqual([498914, 20788]);
    expect(offlineCode(KEY, { kind: 'oneTime', startHour: START_HOUR })).toBe('148544006');
    expect(offlineCode(KEY, { kind: 'hourly', startHour: START_HOUR, hours: 1 })).toBe('200077174436');
    expect(offlineCode(KEY, { kind: 'hourly', startHour: START_HOUR, hours: 672 })).toBe('267154374160');
    expect(offlineCode(KEY, { kind: 'daily', firstDay: DEC_1, days: 7, fromHour: 9, toHour: 18 })).toBe('318806056218');
    expect(offlineCode(KEY, { kind: 'daily', firstDay: DEC_1, days: 28, fromHour: 0, toHour: 24 })).toBe('302327818638');
  });

  it('numbers the 300 hour pairs 0..299 without gaps', () => {
    const indexes = [];
    for (let from = 0; from < 24; from++) for (let to = from + 1; to <= 24; to++) indexes.push(hourPairIndex(from, to));
    expect(indexes).toEqual([...Array(300).keys()]);
  });

  it('opens a one-time code from its start hour for 6 hours, not a millisecond outside', () => {
    const window: OfflineWindow = { kind: 'oneTime', startHour: START_HOUR };
    const code = offlineCode(KEY, window);
    expect(verifyOfflineCode(KEY, code, at('2026-12-01T02:00:00Z'), CST)).toEqual(window);
    expect(verifyOfflineCode(KEY, code, at('2026-12-01T07:59:59.999Z'), CST)).toEqual(window);
    expect(verifyOfflineCode(KEY, code, at('2026-12-01T08:00:00Z'), CST)).toBeUndefined();
    expect(verifyOfflineCode(KEY, code, at('2026-12-01T01:59:59.999Z'), CST)).toBeUndefined();
  });

  it('opens an hourly code of 28 days (672 h) until its last hour ends', () => {
    const window: OfflineWindow = { kind: 'hourly', startHour: START_HOUR, hours: 672 };
    const code = offlineCode(KEY, window);
    const { validFrom, validTo } = offlineWindowBounds(window, CST);
    expect(validTo - validFrom).toBe(28 * 24 * HOUR);
    expect(verifyOfflineCode(KEY, code, validTo - 1, CST)).toEqual(window);
    expect(verifyOfflineCode(KEY, code, validTo, CST)).toBeUndefined();
    expect(verifyOfflineCode(KEY, code, validFrom - 1, CST)).toBeUndefined();
    expect(() => offlineCode(KEY, { kind: 'hourly', startHour: START_HOUR, hours: 673 })).toThrow(RangeError);
    expect(verifyOfflineCode(KEY, `2672${code.slice(4)}`, validFrom, CST)).toBeUndefined(); // 673 hours: not a shape a code can carry
  });

  it('opens a daily code only between its hours (lock local time) on its days', () => {
    const window: OfflineWindow = { kind: 'daily', firstDay: DEC_1, days: 7, fromHour: 9, toHour: 18 };
    const code = offlineCode(KEY, window);
    expect(verifyOfflineCode(KEY, code, at('2026-12-01T09:00:00+08:00'), CST)).toEqual(window);
    expect(verifyOfflineCode(KEY, code, at('2026-12-07T17:59:59+08:00'), CST)).toEqual(window);
    expect(verifyOfflineCode(KEY, code, at('2026-12-03T08:59:59+08:00'), CST)).toBeUndefined();
    expect(verifyOfflineCode(KEY, code, at('2026-12-03T18:00:00+08:00'), CST)).toBeUndefined();
    expect(verifyOfflineCode(KEY, code, at('2026-12-08T10:00:00+08:00'), CST)).toBeUndefined();
    expect(verifyOfflineCode(KEY, code, at('2026-11-30T10:00:00+08:00'), CST)).toBeUndefined();
    expect(offlineWindowBounds(window, CST)).toEqual({ validFrom: at('2026-12-01T09:00:00+08:00'), validTo: at('2026-12-07T18:00:00+08:00') });
  });

  it('refuses a code under another key, a changed digit and malformed input', () => {
    const code = offlineCode(KEY, { kind: 'hourly', startHour: START_HOUR, hours: 5 });
    const other = deriveOfflineCodeKey(KEY, 2, '860000000000001');
    expect(verifyOfflineCode(other, code, START_HOUR * HOUR, CST)).toBeUndefined();
    const flipped = code.slice(0, -1) + String((Number(code.at(-1)) + 1) % 10);
    expect(verifyOfflineCode(KEY, flipped, START_HOUR * HOUR, CST)).toBeUndefined();
    for (const bad of ['', '12345', '9'.repeat(12), `${code}0`, 'abcdefghijkl']) expect(verifyOfflineCode(KEY, bad, START_HOUR * HOUR, CST)).toBeUndefined();
  });

  it('derives a distinct 32-byte key per lock id and IMEI (HKDF, stable)', () => {
    const a = deriveOfflineCodeKey(KEY, 1, '860000000000001');
    expect(a.toString('hex')).toBe(deriveOfflineCodeKey(KEY, 1, '860000000000001').toString('hex'));
    expect(a).toHaveLength(32);
    expect(a.equals(deriveOfflineCodeKey(KEY, 2, '860000000000001'))).toBe(false);
  });
});
