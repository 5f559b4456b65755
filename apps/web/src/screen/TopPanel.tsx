/** The locks with the most alarms over the last 7 days (the analysis's top 10, as many as fit). */
import type { Analysis } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { Panel } from './Panel';

export function TopPanel({ rows }: { rows: Analysis['top']['alarms'] }) {
  const { t } = useTranslation('screen');
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <Panel name="top" title={t('topAlarms')}>
      {rows.length === 0 && <div className="screen-empty">{t('none')}</div>}
      <ol className="screen-top">
        {rows.map((row, index) => (
          <li key={row.lockId} data-imei={row.imei}>
            <span className="screen-top-rank">{index + 1}</span>
            <span className="screen-top-name" title={`${row.imei} ${row.room}`}>{row.name || row.imei}{row.room ? ` · ${row.room}` : ''}</span>
            <span className="screen-top-bar"><i style={{ width: `${(row.count / max) * 100}%` }} /></span>
            <span className="screen-top-count">{row.count}</span>
          </li>
        ))}
      </ol>
    </Panel>
  );
}
