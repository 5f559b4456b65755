/**
 * Times on the big screen, all in contract ANALYSIS_TIME_ZONE (Asia/Shanghai): the zone in which the
 * server counts "today" and the per-hour curves, so the clock, the feed and every axis agree with the
 * figures whatever the browser's own zone.
 */
import { ANALYSIS_TIME_ZONE } from '@iot/contract';

const timeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: ANALYSIS_TIME_ZONE, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const hourFormat = new Intl.DateTimeFormat('en-GB', { timeZone: ANALYSIS_TIME_ZONE, hour: '2-digit', hourCycle: 'h23' });
const dateFormat = new Intl.DateTimeFormat('sv-SE', { timeZone: ANALYSIS_TIME_ZONE });

type When = number | string | Date;
const ms = (when: When) => (typeof when === 'number' ? when : new Date(when).getTime());

/** HH:mm:ss. */
export const screenTime = (when: When) => timeFormat.format(ms(when));
/** HH (00-23). */
export const screenHour = (when: When) => hourFormat.format(ms(when));
/** YYYY-MM-DD. */
export const screenDate = (when: When) => dateFormat.format(ms(when));
/** The weekday's full name in `language` (zh-CN: 星期四, en-US: Thursday). */
export const screenWeekday = (when: When, language: string) => new Intl.DateTimeFormat(language, { timeZone: ANALYSIS_TIME_ZONE, weekday: 'long' }).format(ms(when));
