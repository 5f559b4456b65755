/**
 * A device message's data (a command's parameters, an uplink's payload) as labelled fields in the
 * operator's language (contract messageDataFields; times in the browser's time zone), with the raw
 * JSON one click away in a popover.
 */
import { CodeOutlined } from '@ant-design/icons';
import { type Language, messageDataFields } from '@iot/contract';
import { Button, Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../hooks/useSession';
import { DASH, formatTime } from './logColumns';

/** `label value · label value` of `data` in `language`; — when it has no field. */
export function messageDataText(data: Record<string, unknown>, language: Language): string {
  const fields = messageDataFields(data, language);
  if (fields.length === 0) return DASH;
  return fields.map((field) => `${field.label} ${field.time ? formatTime(new Date(Number(field.value)).toISOString()) : field.value}`).join(' · ');
}

/** The readable data, the JSON behind a small button. */
export function MessageData({ data }: { data: Record<string, unknown> }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const json = <pre className="raw-json">{JSON.stringify(data, null, 2)}</pre>;
  return (
    <span className="message-data">
      <Popover trigger="click" title={t('rawJson')} content={json}>
        <Button type="text" size="small" className="raw-json-button" icon={<CodeOutlined />} aria-label={t('rawJson')} title={t('rawJson')} />
      </Popover>
      {messageDataText(data, language)}
    </span>
  );
}
