/**
 * A lock's service end: the date, coloured as the warnings go: orange within 30 days, red
 * within 7 days and after the end; "not purchased" when the lock was never covered by a package.
 */
import { SERVICE_WARNING_DAYS } from '@iot/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../lib/timeZone';

const DAY_MS = 86_400_000;
const [MONTH, WEEK, ONE] = SERVICE_WARNING_DAYS;

/** The tag of `value` (ISO 8601 or null). */
export function ServiceEndTag({ value }: { value: string | null }) {
  const { t } = useTranslation('billing');
  if (!value) return <Tag>{t('noService')}</Tag>;
  const date = formatTime(value, 'YYYY-MM-DD');
  const left = (Date.parse(value) - Date.now()) / DAY_MS;
  if (left > MONTH) return <span className="service-end">{date}</span>;
  const label = left <= 0 ? t('expired') : left <= ONE ? t('endsToday') : t('endsInDays', { count: Math.ceil(left) });
  return (
    <Tooltip title={date}>
      <Tag className="service-end" color={left <= WEEK ? 'red' : 'orange'}>{label}</Tag>
    </Tooltip>
  );
}
