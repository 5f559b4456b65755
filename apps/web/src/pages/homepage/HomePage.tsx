/**
 * 首页 / 门锁分析: KPI cards from GET /iot/v1/lockDevice/analysis and an online/offline donut,
 * refreshed every 10 s in the background.
 */
import { analysisEndpoints } from '@iot/contract';
import { Card, Statistic } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { PageSpin } from '../../components/PageSpin';

const OnlinePie = lazy(() => import('./OnlinePie'));
const REFRESH_MS = 10_000;

/** The home page / lock analysis screen. */
export default function HomePage() {
  const { t } = useTranslation('homepage');
  const { data } = useApiQuery(analysisEndpoints.analysis, undefined, { refetchInterval: REFRESH_MS });
  const kpis = [
    { key: 'total', value: data?.fleet.total, color: '#1668dc', to: '/lockInfo' },
    { key: 'online', value: data?.fleet.online, color: '#52c41a', to: '/lockInfo?online=true' },
    { key: 'offline', value: data?.fleet.offline, color: '#8c8c8c', to: '/lockInfo?online=false' },
    { key: 'lowBattery', value: data?.attention.lowBattery, color: '#f5222d', to: '/lockInfo?lowBattery=true' },
  ] as const;

  return (
    <div>
      <div className="kpi-grid">
        {kpis.map((kpi) => (
          // Each KPI opens the list it counts, filtered (issue #17).
          <Link key={kpi.key} to={kpi.to} className="kpi-link">
          <Card data-kpi={kpi.key} hoverable>
            <Statistic
              title={t(kpi.key)}
              value={kpi.value ?? '—'}
              suffix={kpi.value === undefined ? undefined : t('unit')}
              styles={{ content: { color: kpi.color } }}
            />
          </Card>
          </Link>
        ))}
      </div>
      <Card title={t('onlineChart')} extra={<span>{t('autoRefresh')}</span>}>
        <div className="chart-box">
          {data && (
            <Suspense fallback={<PageSpin />}>
              <OnlinePie online={data.fleet.online} offline={data.fleet.offline} labels={{ online: t('online'), offline: t('offline') }} />
            </Suspense>
          )}
        </div>
      </Card>
    </div>
  );
}
