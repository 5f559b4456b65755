/**
 * Offline codes (docs/offline-codes.md): keypad codes computed from a per-lock 32-byte key
 * and checked by the lock without any contact. Node only (node:crypto): imported as
 * `@iot/contract/offline-code` by the server and the simulated locks, never by the browser.
 *
 * A code is digits `K P… M…`: K the kind (1 one-time, 2 hourly, 3 daily), P the window's shape in
 * clear, M an HMAC-SHA-256 (RFC 2104) of the whole window, dynamically truncated as in RFC 4226 §5.3
 * (offset = low 4 bits of the last byte, as RFC 6238 does for SHA-256) and reduced mod 10^|M|.
 * - one-time: `1` + 8 MAC digits (9 digits); window [S, S + 6 h), S a whole UTC hour.
 * - hourly: `2` + DDD (hours − 1, 000-671) + 8 MAC digits (12 digits); window [S, S + D h).
 * - daily: `3` + PPP (pair index of fromHour < toHour, 000-299) + NN (days − 1, 00-27) + 6 MAC digits
 *   (12 digits); open on days F..F+N−1 (local days of the lock's fixed UTC offset) from fromHour to toHour.
 * The lock recovers the start by enumerating the starts whose window holds its clock: at most 6
 * (one-time), D ≤ 672 (hourly) or N ≤ 28 (daily) HMACs per attempt.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { MAX_DAILY_DAYS, MAX_HOURLY_HOURS, ONE_TIME_HOURS } from '../api/offlineCode.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Key length, bytes (HMAC-SHA-256 block-friendly; RFC 4226 §4 R6 asks for at least 128 bits). */
export const OFFLINE_CODE_KEY_BYTES = 32;

/**
 * A window as the algorithm sees it. Hours are whole hours since 1970-01-01T00:00Z; days are local
 * days since 1970-01-01 at the lock's UTC offset; fromHour/toHour local hours (toHour exclusive, ≤ 24).
 */
export type OfflineWindow =
  | { kind: 'oneTime'; startHour: number }
  | { kind: 'hourly'; startHour: number; hours: number }
  | { kind: 'daily'; firstDay: number; days: number; fromHour: number; toHour: number };

const KIND_DIGIT = { oneTime: 1, hourly: 2, daily: 3 } as const;

/** Index of the pair fromHour < toHour (0 ≤ from ≤ 23, from < to ≤ 24) among the 300 pairs, by from then to. */
export function hourPairIndex(fromHour: number, toHour: number): number {
  return 24 * fromHour - (fromHour * (fromHour - 1)) / 2 + (toHour - fromHour - 1);
}

function hourPair(index: number): { fromHour: number; toHour: number } | undefined {
  for (let from = 0; from < 24; from++) {
    const to = index - hourPairIndex(from, from + 1) + from + 1;
    if (to > from && to <= 24) return { fromHour: from, toHour: to };
  }
  return undefined;
}

/** Throws a RangeError when `window` is outside what a code can carry. */
export function checkOfflineWindow(window: OfflineWindow): void {
  const bad = (what: string) => { throw new RangeError(`offline code window: ${what}`); };
  const start = window.kind === 'daily' ? window.firstDay : window.startHour;
  if (!Number.isInteger(start) || start < 0 || start > 0xffff_ffff) bad('start out of range');
  if (window.kind === 'hourly' && !(Number.isInteger(window.hours) && window.hours >= 1 && window.hours <= MAX_HOURLY_HOURS)) bad('hours out of range');
  if (window.kind === 'daily') {
    if (!(Number.isInteger(window.days) && window.days >= 1 && window.days <= MAX_DAILY_DAYS)) bad('days out of range');
    if (!(Number.isInteger(window.fromHour) && Number.isInteger(window.toHour) && window.fromHour >= 0 && window.fromHour < window.toHour && window.toHour <= 24)) bad('hours out of order');
  }
}

/** The 12 bytes the MAC covers: version 1, kind digit, 2 zero bytes, start (uint32 BE), a, b (uint16 BE). */
function message(window: OfflineWindow): Buffer {
  const bytes = Buffer.alloc(12);
  bytes[0] = 1;
  bytes[1] = KIND_DIGIT[window.kind];
  if (window.kind === 'daily') {
    bytes.writeUInt32BE(window.firstDay, 4);
    bytes.writeUInt16BE(window.days, 8);
    bytes.writeUInt16BE(window.fromHour * 256 + window.toHour, 10);
  } else {
    bytes.writeUInt32BE(window.startHour, 4);
    bytes.writeUInt16BE(window.kind === 'hourly' ? window.hours : ONE_TIME_HOURS, 8);
  }
  return bytes;
}

/** RFC 4226 §5.3 dynamic truncation of an HMAC value to `digits` decimal digits (offset from its last byte). */
export function dynamicTruncation(hash: Buffer, digits: number): string {
  const offset = (hash[hash.length - 1] as number) & 0x0f;
  const binary = hash.readUInt32BE(offset) & 0x7fff_ffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

const mac = (key: Buffer, window: OfflineWindow, digits: number) => dynamicTruncation(createHmac('sha256', key).update(message(window)).digest(), digits);

/** The code of `window` under `key` (32 bytes). Throws RangeError for a window a code cannot carry. */
export function offlineCode(key: Buffer, window: OfflineWindow): string {
  checkOfflineWindow(window);
  const kind = String(KIND_DIGIT[window.kind]);
  if (window.kind === 'oneTime') return kind + mac(key, window, 8);
  if (window.kind === 'hourly') return kind + String(window.hours - 1).padStart(3, '0') + mac(key, window, 8);
  const shape = String(hourPairIndex(window.fromHour, window.toHour)).padStart(3, '0') + String(window.days - 1).padStart(2, '0');
  return kind + shape + mac(key, window, 6);
}

/** First instant and end (exclusive) of a window, ms since the epoch; a daily window's span from its first opening to its last closing. */
export function offlineWindowBounds(window: OfflineWindow, utcOffsetMinutes: number): { validFrom: number; validTo: number } {
  if (window.kind === 'oneTime') return { validFrom: window.startHour * HOUR_MS, validTo: (window.startHour + ONE_TIME_HOURS) * HOUR_MS };
  if (window.kind === 'hourly') return { validFrom: window.startHour * HOUR_MS, validTo: (window.startHour + window.hours) * HOUR_MS };
  const offset = utcOffsetMinutes * 60_000;
  return { validFrom: window.firstDay * DAY_MS + window.fromHour * HOUR_MS - offset, validTo: (window.firstDay + window.days - 1) * DAY_MS + window.toHour * HOUR_MS - offset };
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The lock's check: the window of `code` whose opening holds lock time `at` (ms), or undefined when
 * none does (a wrong code, or a right one outside its window: the lock cannot tell them apart).
 * Enumerates at most 6 / hours / days candidate starts (module comment). A one-time code's single use
 * is the caller's to remember (until its window ends).
 */
export function verifyOfflineCode(key: Buffer, code: string, at: number, utcOffsetMinutes: number): OfflineWindow | undefined {
  const hour = Math.floor(at / HOUR_MS);
  const candidates: OfflineWindow[] = [];
  if (/^1\d{8}$/.test(code)) {
    for (let start = hour - ONE_TIME_HOURS + 1; start <= hour; start++) candidates.push({ kind: 'oneTime', startHour: start });
  } else if (/^2\d{11}$/.test(code)) {
    const hours = Number(code.slice(1, 4)) + 1;
    if (hours > MAX_HOURLY_HOURS) return undefined;
    for (let start = hour - hours + 1; start <= hour; start++) candidates.push({ kind: 'hourly', startHour: start, hours });
  } else if (/^3\d{11}$/.test(code)) {
    const pair = hourPair(Number(code.slice(1, 4)));
    const days = Number(code.slice(4, 6)) + 1;
    const local = at + utcOffsetMinutes * 60_000;
    const localHour = Math.floor((local % DAY_MS + DAY_MS) % DAY_MS / HOUR_MS);
    if (!pair || days > MAX_DAILY_DAYS || localHour < pair.fromHour || localHour >= pair.toHour) return undefined;
    const today = Math.floor(local / DAY_MS);
    for (let first = today - days + 1; first <= today; first++) candidates.push({ kind: 'daily', firstDay: first, days, ...pair });
  }
  return candidates.find((window) => (window.kind === 'daily' ? window.firstDay : window.startHour) >= 0 && same(offlineCode(key, window), code));
}

/**
 * A lock's offline-code key: HKDF-SHA-256 (RFC 5869) of the platform's master key, salt
 * `ziguang-offline-code/v1`, info `lock:{lockId}:{imei}`, 32 bytes. Lock ids are never reused, so a
 * released IMEI on a new lock gets a new key.
 */
export function deriveOfflineCodeKey(masterKey: Buffer, lockId: number, imei: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, 'ziguang-offline-code/v1', `lock:${lockId}:${imei}`, OFFLINE_CODE_KEY_BYTES));
}
