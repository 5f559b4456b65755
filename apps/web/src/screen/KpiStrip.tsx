/**
 * The big screen's headline figures (fleet, alarms, today's unlocks), readable across the room. For one
 * data centre each figure links to the console list it counts; the all-data-centres view has no list.
 */
import type { Analysis } from '@iot/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

interface Figure { key: string; value: string | number; to?: string; tone?: 'good' | 'bad' | 'warn' | 'dim' }

function figuresOf(data: Analysis): Figure[] {
  const openAlarms = Object.values(data.alarmsOpen).reduce((a, b) => a + b, 0);
  const unlocks = Object.values(data.unlocksToday.byMethod).reduce((a, b) => a + b, 0);
  const rate = data.fleet.total ? Math.round((data.fleet.online / data.fleet.total) * 1000) / 10 : 0;
  return [
    { key: 'total', value: data.fleet.total, to: '/lockInfo' },
    { key: 'online', value: data.fleet.online, to: '/lockInfo?online=true', tone: 'good' },
    { key: 'asleep', value: data.fleet.asleep, to: '/lockInfo?liveState=asleep' },
    { key: 'offline', value: data.fleet.offline, to: '/lockInfo?online=false', tone: 'dim' },
    { key: 'onlineNow', value: `${rate}%`, tone: 'good' },
    { key: 'openAlarms', value: openAlarms, to: '/lockAlert?state=active', tone: openAlarms ? 'bad' : undefined },
    { key: 'unlocksToday', value: unlocks },
    { key: 'failedToday', value: data.unlocksToday.failed, tone: data.unlocksToday.failed ? 'warn' : undefined },
  ];
}

export function KpiStrip({ data, linked }: { data: Analysis; linked: boolean }) {
  const { t } = useTranslation('screen');
  return (
    <div className="screen-kpis">
      {figuresOf(data).map((figure) => {
        const body = (
          <>
            <span className={`screen-kpi-value ${figure.tone ? `screen-tone-${figure.tone}` : ''}`}>{figure.value}</span>
            <span className="screen-kpi-label">{t(figure.key)}</span>
          </>
        );
        return linked && figure.to
          ? <Link key={figure.key} to={figure.to} className="screen-kpi" data-kpi={figure.key}>{body}</Link>
          : <div key={figure.key} className="screen-kpi" data-kpi={figure.key}>{body}</div>;
      })}
    </div>
  );
}
