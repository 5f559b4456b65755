/**
 * From what an operator asks (contract offlineCodeWindowInput: instants, dates and hours of the data
 * centre) to the window a code carries (@iot/contract/offline-code OfflineWindow). One-time and hourly
 * windows start at the whole UTC hour the start falls in (a whole hour in every zone China and most of
 * the world use). Daily windows are local days and hours: the locks keep China Standard Time
 * (LOCK_UTC_OFFSET_MINUTES, no daylight saving), so they are offered when the data centre's zone is at
 * that offset on the first day. Throws 400 naming the failing field (zh and en).
 */
import { LOCK_UTC_OFFSET_MINUTES, MAX_DAILY_DAYS, type OfflineCodeIssueBody } from '@iot/contract';
import type { OfflineWindow } from '@iot/contract/offline-code';
import { fieldError } from '../../http/api-error.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Minutes east of UTC of IANA zone `timeZone` at instant `at` (ms). */
export function utcOffsetMinutes(timeZone: string, at: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
}

/**
 * The code window of `input` for a data centre in `timeZone`, issued at `now` (ms). 400 on
 * body.window.start / lastDate when the window is over already, on body.window.lastDate when a daily
 * window spans more than MAX_DAILY_DAYS days or ends before it starts, on body.window.toHour when the
 * hours are not in order, on body.window.kind when the zone is not at the locks' offset.
 */
export function codeWindow(input: OfflineCodeIssueBody['window'], timeZone: string, now: number): OfflineWindow {
  if (input.kind !== 'daily') {
    const startHour = Math.floor(Date.parse(input.start) / HOUR_MS);
    const hours = input.kind === 'hourly' ? input.hours : 6;
    if ((startHour + hours) * HOUR_MS <= now) throw fieldError('body.window.start', '有效期已结束，请选择更晚的开始时间', 'This window is over already; pick a later start');
    return input.kind === 'hourly' ? { kind: 'hourly', startHour, hours } : { kind: 'oneTime', startHour };
  }
  const firstDay = Date.parse(`${input.firstDate}T00:00:00Z`) / DAY_MS;
  const lastDay = Date.parse(`${input.lastDate}T00:00:00Z`) / DAY_MS;
  const days = lastDay - firstDay + 1;
  if (days < 1) throw fieldError('body.window.lastDate', '结束日期不能早于开始日期', 'The last date may not be before the first date');
  if (days > MAX_DAILY_DAYS) throw fieldError('body.window.lastDate', `每日时段密码最长 ${MAX_DAILY_DAYS} 天`, `A daily code spans at most ${MAX_DAILY_DAYS} days`);
  if (input.toHour <= input.fromHour) throw fieldError('body.window.toHour', '结束时刻须晚于开始时刻', 'The end hour must be after the start hour');
  const offset = utcOffsetMinutes(timeZone, firstDay * DAY_MS);
  if (offset !== LOCK_UTC_OFFSET_MINUTES) {
    throw fieldError('body.window.kind', '门锁按北京时间（UTC+8）计时，本数据中心时区不同，无法签发每日时段密码', 'Locks keep China Standard Time (UTC+8); this data centre\'s zone differs, so daily codes are not offered');
  }
  if ((lastDay * DAY_MS) + input.toHour * HOUR_MS - offset * 60_000 <= now) throw fieldError('body.window.lastDate', '有效期已结束，请选择更晚的日期', 'This window is over already; pick later dates');
  return { kind: 'daily', firstDay, days, fromHour: input.fromHour, toHour: input.toHour };
}
