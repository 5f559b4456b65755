/**
 * How 时间表管理 writes a schedule, in the operator's language from the contract's Matter labels:
 * `周一、周二 09:00-12:00` for a week-day schedule, `2026-11-23 09:00 ~ 2026-11-30 09:00` for a
 * year-day schedule (the browser's time zone; week-day times are the lock's local time).
 */
import { type AccessScheduleRecord, type Language, WEEK_DAY_LABELS } from '@iot/contract';
import dayjs from 'dayjs';

/** The schedule's days and times, or its date range. */
export function scheduleText(record: Pick<AccessScheduleRecord, 'kind' | 'days' | 'startTime' | 'endTime' | 'localStartTime' | 'localEndTime'>, language: Language): string {
  if (record.kind === 'weekDay') {
    const days = record.days.map((day) => WEEK_DAY_LABELS[day][language]).join(language === 'zh-CN' ? '、' : ', ');
    return `${days} ${record.startTime}-${record.endTime}`;
  }
  const show = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '');
  return `${show(record.localStartTime)} ~ ${show(record.localEndTime)}`;
}
