/**
 * Filter fields shared by the log pages: a time range (antd RangePicker with time) and a lock keyword
 * (IMEI, name or room), and the mapping of their form values to the contract's query
 * (`startTime`/`endTime` ISO 8601, `keyword`).
 */
import { DatePicker, Form, Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { fromPicker, toPicker } from '../lib/timeZone';

/** The time range and (unless `keyword` is false) keyword fields; the keyword's `label` and `placeholder` (default: lock, IMEI / name / room). */
export function LogFilterItems({ keyword = true, label, placeholder }: { keyword?: boolean; label?: string; placeholder?: string }) {
  const { t } = useTranslation('deviceLog');
  return (
    <>
      <Form.Item name="range" label={t('timeRange')}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
      {keyword && (
        <Form.Item name="keyword" label={label ?? t('keyword')}>
          <Input allowClear placeholder={placeholder ?? t('keywordPlaceholder')} style={{ width: 200 }} />
        </Form.Item>
      )}
    </>
  );
}

/** Form values -> query: range (wall-clock times of the data centre's zone) -> startTime/endTime, trimmed keyword, empty selections dropped. */
export function logQuery(values: Record<string, unknown>): Record<string, unknown> {
  const { range, keyword, ...rest } = values;
  const [start, end] = (Array.isArray(range) ? range : []) as (Dayjs | null)[];
  const text = typeof keyword === 'string' ? keyword.trim() : '';
  const picked = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && value !== 'all'));
  return { ...picked, startTime: start ? fromPicker(start).toISOString() : undefined, endTime: end ? fromPicker(end).toISOString() : undefined, keyword: text || undefined };
}

/** URL query -> form values: startTime/endTime -> the range field; other values as they are. */
export function logFormValues(query: Record<string, string>): Record<string, unknown> {
  const { startTime, endTime, ...rest } = query;
  return startTime || endTime ? { ...rest, range: [startTime ? toPicker(startTime) : null, endTime ? toPicker(endTime) : null] } : rest;
}
