/**
 * Times on the big screen, all in the data centre's time zone (lib/timeZone.ts: one rule for
 * the whole product, the console's pages and exports use the same): the zone in which the server counts
 * "today" and the per-hour curves, so the clock, the feed and every axis agree with the figures
 * whatever the browser's own zone.
 */
import { getTimeZone } from '../lib/timeZone';

const formats = new Map<string, Intl.DateTimeFormat>();
/** A cached formatter of `options` in the data centre's current zone. */
function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const zone = getTimeZone();
  const key = `${zone}|${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    formats.set(key, format);
  }
  return format;
}

type When = number | string | Date;
const ms = (when: When) => (typeof when === 'number' ? when : new Date(when).getTime());

/** HH:mm:ss. */
export const screenTime = (when: When) => formatter('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(ms(when));
/** HH (00-23). */
export const screenHour = (when: When) => formatter('en-GB', { hour: '2-digit', hourCycle: 'h23' }).format(ms(when));
/** YYYY-MM-DD. */
export const screenDate = (when: When) => formatter('sv-SE', {}).format(ms(when));
/** The weekday's full name in `language` (zh-CN: 星期四, en-US: Thursday). */
export const screenWeekday = (when: When, language: string) => formatter(language, { weekday: 'long' }).format(ms(when));
