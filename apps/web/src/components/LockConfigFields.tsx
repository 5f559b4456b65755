/** A lock's reported configuration as labelled fields (`音量 40% · 心跳间隔 120 秒`), never raw JSON. */
import { lockConfigFields, type protocol } from '@iot/contract';
import { Typography } from 'antd';
import { useLanguage } from '../app/useSession';
import { DASH } from './logColumns';

/** The fields of `config` in the current language; `empty` (default —) without a configuration. */
export function LockConfigFields({ config, empty = DASH }: { config: protocol.LockConfig | null; empty?: string }) {
  const language = useLanguage();
  const fields = config ? lockConfigFields(config, language) : [];
  if (fields.length === 0) return <>{empty}</>;
  return (
    <span className="lock-config-fields">
      {fields.map((field, index) => (
        <span key={field.label}>
          {index > 0 && ' · '}
          <Typography.Text type="secondary">{field.label}</Typography.Text> {field.value}
        </span>
      ))}
    </span>
  );
}
