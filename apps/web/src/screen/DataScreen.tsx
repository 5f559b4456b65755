/**
 * 数据可视化 /Datavisualization: the control-room wall. Full screen, dark, sized by the spec's
 * scale unit (`--rem`: width clamped to 1366..1920 / 24) so it reads the same at 1366 and 1920 wide.
 * Every figure comes from the analysis API (KPIs, trends, top list, buildings: every 10 s; the live
 * feed: every 2 s; air switches: every 10 s), merged into the charts in place; polls keep running
 * through a server restart and the screen picks up again by itself. `?scope=all` (administrators)
 * shows every data centre, read-only.
 */
import { ACCOUNT_TYPE_ADMIN, type Analysis, analysisEndpoints } from '@iot/contract';
import { ConfigProvider, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useTenantId, useUserInfo } from '../hooks/useSession';
import { BATTERY_BUCKETS, buckets, fleetDonut, onlineRate, RSSI_BUCKETS, todayVsYesterday } from '../components/charts/analysisOptions';
import { AirSwitchPanel } from './AirSwitchPanel';
import { BuildingsPanel } from './BuildingsPanel';
import { FeedPanel } from './FeedPanel';
import { KpiStrip } from './KpiStrip';
import { Panel, ScreenChart } from './Panel';
import { type Scope, ScreenHeader } from './ScreenHeader';
import { TopPanel } from './TopPanel';
import { useScreenQuery } from './useScreenQuery';
import './screen.css';

const FIGURES_MS = 10_000;
const FEED_MS = 2_000;
const HOUR_MS = 3_600_000;
/** Rows of the top list that fit its panel at 16:9 (the panel scales with the screen). */
const TOP_ROWS = 8;

/** The fleet donut without empty slices (their labels would pile up) and with names on the slices instead of a legend. */
function donut(fleet: Analysis['fleet'], labels: { awake: string; asleep: string; offline: string }) {
  const option = fleetDonut(fleet, labels, true);
  return { ...option, legend: { show: false }, series: option.series.map((series) => ({ ...series, radius: ['42%', '66%'], data: series.data.filter((slice) => slice.value > 0) })) };
}

function Charts({ data }: { data: Analysis }) {
  const { t } = useTranslation('screen');
  return (
    <>
      <Panel name="fleet" title={t('fleet')}>
        <ScreenChart name="fleet" option={donut(data.fleet, { awake: t('awake'), asleep: t('asleep'), offline: t('offline') })} />
      </Panel>
      <Panel name="unlocksHourly" title={t('unlocksPerHour')}>
        <ScreenChart name="unlocksHourly" option={todayVsYesterday(data.hourly.unlocksToday, data.hourly.unlocksYesterday, { today: t('today'), yesterday: t('yesterday') }, true)} />
      </Panel>
      <Panel name="alarmsHourly" title={t('alarmsPerHour')}>
        <ScreenChart name="alarmsHourly" option={todayVsYesterday(data.hourly.alarmsToday, data.hourly.alarmsYesterday, { today: t('today'), yesterday: t('yesterday') }, true)} />
      </Panel>
      <Panel name="online" title={t('onlineRate')}>
        <ScreenChart name="online" option={onlineRate(data.trends, { rate: t('rate'), newLocks: t('newLocks') }, true)} />
      </Panel>
      <BuildingsPanel buildings={data.buildings} />
      <Panel name="health" title={t('health')}>
        <div className="screen-pair">
          <div className="screen-pair-item"><span className="screen-caption">{t('battery')}</span>
            <ScreenChart name="battery" option={buckets(BATTERY_BUCKETS, data.distributions.battery, '#52c41a', t('locks'))} /></div>
          <div className="screen-pair-item"><span className="screen-caption">{t('rssi')}</span>
            <ScreenChart name="rssi" option={buckets(RSSI_BUCKETS, data.distributions.rssi, '#1677ff', t('locks'))} /></div>
        </div>
      </Panel>
      <TopPanel rows={data.top.alarms.slice(0, TOP_ROWS)} />
    </>
  );
}

/** The big screen. */
export default function DataScreen() {
  useTranslation('screen');
  const tenantId = useTenantId();
  const [params, setParams] = useSearchParams();
  const { data: info } = useUserInfo();
  const scope: Scope = info?.type === ACCOUNT_TYPE_ADMIN && params.get('scope') === 'all' ? 'all' : 'tenant';
  const key = [scope, tenantId] as const;
  const live = scope === 'tenant';
  const analysis = useScreenQuery(analysisEndpoints.analysis, { days: '7', scope }, key, FIGURES_MS, live);
  const feed = useScreenQuery(analysisEndpoints.feed, () => ({ scope, after: new Date(Date.now() - HOUR_MS).toISOString() }), key, FEED_MS, live);
  const air = useScreenQuery(analysisEndpoints.airSwitches, { scope }, key, FIGURES_MS, live);
  const offline = analysis.isError || feed.isError || air.isError;
  return (
    <ConfigProvider theme={{ algorithm: theme.darkAlgorithm }}>
      <div className="screen" data-scope={scope}>
        <ScreenHeader scope={scope} offline={offline} onScope={(next) => setParams(next === 'all' ? { scope: 'all' } : {}, { replace: true })} />
        {analysis.data ? <KpiStrip data={analysis.data} linked={scope === 'tenant'} /> : <div className="screen-kpis" />}
        <div className="screen-grid">
          {analysis.data && <Charts data={analysis.data} />}
          <FeedPanel items={feed.data} showTenant={scope === 'all'} />
          <AirSwitchPanel data={air.data} />
        </div>
      </div>
    </ConfigProvider>
  );
}
