/**
 * Filter fields shared by the log pages: a time range (antd RangePicker with time) and a lock keyword
 * (IMEI, name or room), and the mapping of their form values to the contract's query
 * (`startTime`/`endTime` ISO 8601, `keyword`).
 */
import { DatePicker, Form, Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';

/** The time range and keyword fields. */
export function LogFilterItems() {
  const { t } = useTranslation('deviceLog');
  return (
    <>
      <Form.Item name="range" label={t('timeRange')}>
        <DatePicker.RangePicker showTime allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item name="keyword" label={t('keyword')}>
        <Input allowClear placeholder={t('keywordPlaceholder')} style={{ width: 200 }} />
      </Form.Item>
    </>
  );
}

/** Form values -> query: range -> startTime/endTime, trimmed keyword, empty selections dropped. */
export function logQuery(values: Record<string, unknown>): Record<string, unknown> {
  const { range, keyword, ...rest } = values;
  const [start, end] = (Array.isArray(range) ? range : []) as (Dayjs | null)[];
  const text = typeof keyword === 'string' ? keyword.trim() : '';
  const picked = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined && value !== 'all'));
  return { ...picked, startTime: start?.toISOString(), endTime: end?.toISOString(), keyword: text || undefined };
}
