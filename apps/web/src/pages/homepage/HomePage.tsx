/**
 * 首页 / 门锁分析: what needs doing today. KPI rows (fleet, to do, today's unlocks), each a
 * link to the list it counts; trends over 7 / 30 / 90 days, distributions, top 10s and battery
 * forecasts, all from GET /iot/v1/lockDevice/analysis, refreshed in place as the live stream's events
 * come (every 10 s while it is down; charts merge the new figures; the page is not re-drawn). Each chart is
 * drawn once it comes near the view (components/charts/ChartBox), ECharts loading with the first one.
 */
import { ANALYSIS_RANGES, analysisEndpoints } from '@iot/contract';
import { FundProjectionScreenOutlined } from '@ant-design/icons';
import { Card, Segmented } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { PageSpin } from '../../components/PageSpin';
import { ChartBox } from '../../components/charts/ChartBox';
import { KpiCards } from './KpiCards';
import { fleetKpis, unlockKpis, workKpis } from './kpis';
import { BATTERY_BUCKETS, buckets, fleetDonut, onlineRate, RSSI_BUCKETS, stackedDays, todayVsYesterday } from '../../components/charts/analysisOptions';
import { TopLists } from './TopLists';
import { inZone } from '../../lib/timeZone';
import { useLiveState } from '../../live/LiveConnection';

const REFRESH_MS = 10_000;

/** The home page / lock analysis screen. */
export default function HomePage() {
  const { t } = useTranslation('homepage');
  const { t: tl } = useTranslation('deviceLog');
  const [days, setDays] = useState<(typeof ANALYSIS_RANGES)[number]>(7);
  const live = useLiveState() === 'live';
  const { data } = useApiQuery(analysisEndpoints.analysis, { days: String(days) as '7' | '30' | '90', scope: 'tenant' }, { refetchInterval: REFRESH_MS, keepPrevious: true });
  if (!data) return <PageSpin />;
  const todayStart = inZone().startOf('day').toISOString();
  const chart = (name: string, title: string, option: Record<string, unknown>, extra?: ReactNode) => (
    <Card size="small" title={title} extra={extra} className="home-card">
      <ChartBox name={name} option={option} className="chart-box chart-box-small" />
    </Card>
  );
  return (
    <div className="home-page">
      <KpiCards title={t('fleet')} kpis={fleetKpis(data)} />
      <KpiCards title={t('todo')} kpis={workKpis(data)} />
      <KpiCards title={t('unlocksToday')} kpis={unlockKpis(data, todayStart)} />
      <div className="home-toolbar">
        <Segmented<number> value={days} onChange={(value) => setDays(value as typeof days)}
          options={ANALYSIS_RANGES.map((d) => ({ value: d, label: t('days', { count: d }) }))} />
        <span className="home-refresh">{t(live ? 'liveRefresh' : 'autoRefresh')}</span>
        <Link to="/Datavisualization" className="home-screen-link" data-screen-link><FundProjectionScreenOutlined /> {t('bigScreen')}</Link>
      </div>
      <div className="home-grid">
        {chart('unlocks', t('unlocksPerDay'), stackedDays(data.trends.days, { ...data.trends.unlocks, failed: data.trends.failed }, (k) => (k === 'failed' ? t('failed') : tl(`methods.${k}`))))}
        {chart('alarms', t('alarmsPerDay'), stackedDays(data.trends.days, data.trends.alarms, (k) => tl(`kinds.${k}`)))}
        {chart('fleet', t('fleetState'), fleetDonut(data.fleet, { awake: t('kpi.awake'), asleep: t('kpi.asleep'), offline: t('kpi.offline') }))}
        {chart('hourly', t('unlocksPerHour'), todayVsYesterday(data.hourly.unlocksToday, data.hourly.unlocksYesterday, { today: t('today'), yesterday: t('yesterday') }))}
        {chart('online', t('onlineRate'), onlineRate(data.trends, { rate: t('onlineRate'), newLocks: t('newLocks') }))}
        {chart('battery', t('batteryDistribution'), buckets(BATTERY_BUCKETS, data.distributions.battery, '#52c41a', t('locks')))}
        {chart('rssi', t('rssiDistribution'), buckets(RSSI_BUCKETS, data.distributions.rssi, '#1677ff', t('locks')))}
      </div>
      <TopLists data={data} />
    </div>
  );
}
