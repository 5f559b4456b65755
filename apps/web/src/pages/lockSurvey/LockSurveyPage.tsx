/**
 * 门锁概况 lockSurvey: the data centre's fleet at a glance from GET /iot/v1/lockDevice/survey,
 * refreshed every 30 s: counts by live state, the locks needing attention (each count opens 门锁信息
 * filtered by that attention kind), battery and RSSI distributions (ECharts, loaded lazily) and counts
 * by type, firmware, building and group (each opening the filtered list).
 */
import { ATTENTION_KINDS, ATTENTION_THRESHOLDS, LOW_BATTERY_PERCENT, lockEndpoints, type LockSurvey, formatVersion } from '@iot/contract';
import { Card, Col, Row, Statistic } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { PageSpin } from '../../components/PageSpin';
import { SurveyCounts } from './SurveyCounts';
import { rangeText } from '../../components/rangeText';

const SurveyBars = lazy(() => import('./SurveyBars'));
const REFRESH_MS = 30_000;

/** The thresholds named in the attention titles. */
const THRESHOLDS = {
  battery: LOW_BATTERY_PERCENT, rssi: ATTENTION_THRESHOLDS.weakRssiDbm, intervals: ATTENTION_THRESHOLDS.offlineIntervals, hours: ATTENTION_THRESHOLDS.failedCommandsHours,
};
const list = (query: Record<string, string>) => `/lockInfo?${new URLSearchParams(query)}`;
type Bucket = LockSurvey['battery'][number];

/** A bucket's label in the console's one range format (components/rangeText.ts). */
const range = ({ from, to }: Bucket, unit: string, closed = false) => rangeText(from, to, unit, closed);

/** The fleet overview page. */
export default function LockSurveyPage() {
  const { t } = useTranslation('lockFleet');
  const { data } = useApiQuery(lockEndpoints.survey, undefined, { refetchInterval: REFRESH_MS });
  const states = [
    { key: 'total', value: data?.total, color: '#1668dc', to: '/lockInfo' },
    { key: 'online', value: data?.liveStates.online, color: '#389e0d', to: list({ liveState: 'online' }) },
    { key: 'asleep', value: data?.liveStates.asleep, color: '#722ed1', to: list({ liveState: 'asleep' }) },
    { key: 'offline', value: data?.liveStates.offline, color: '#8c8c8c', to: list({ liveState: 'offline' }) },
    { key: 'disabled', value: data?.disabled, color: '#fa8c16', to: list({ state: 'disabled' }) },
  ];
  const chart = (bars: { label: string; count: number; highlight?: boolean }[]) => (
    <div className="survey-chart">{data && <Suspense fallback={<PageSpin />}><SurveyBars bars={bars} unit={t('unit')} /></Suspense>}</div>
  );
  const total = data?.total ?? 0;
  const unplaced = t('unplaced');
  return (
    <div className="lock-survey">
      <div className="survey-states">
        {states.map((state) => (
          <Link key={state.key} to={state.to} className="kpi-link" data-state={state.key}>
            <Card hoverable size="small"><Statistic title={t(`states.${state.key}`)} value={state.value ?? '—'} styles={{ content: { color: state.color } }} /></Card>
          </Link>
        ))}
      </div>
      <Card title={t('attention')} size="small" className="survey-block">
        <div className="survey-attention">
          {ATTENTION_KINDS.map((kind) => {
            const value = data?.attention[kind];
            return (
              <Link key={kind} to={list({ [kind]: 'true' })} className="kpi-link" data-attention={kind}>
                <Statistic title={t(`attentionKinds.${kind}`, THRESHOLDS)} value={value ?? '—'} styles={{ content: { color: value ? '#cf1322' : '#389e0d' } }} />
              </Link>
            );
          })}
        </div>
      </Card>
      <Row gutter={16} className="survey-block">
        <Col span={12}>
          <Card title={t('battery')} size="small" extra={data ? t('noReading', { count: data.batteryUnknown }) : undefined}>
            {chart((data?.battery ?? []).map((bucket) => ({ label: range(bucket, '%', bucket.to === 100), count: bucket.count, highlight: (bucket.to ?? 0) <= LOW_BATTERY_PERCENT })))}
          </Card>
        </Col>
        <Col span={12}>
          <Card title={t('rssi')} size="small" extra={data ? t('noReading', { count: data.rssiUnknown }) : undefined}>
            {chart((data?.rssi ?? []).map((bucket) => ({ label: range(bucket, ''), count: bucket.count, highlight: (bucket.to ?? 0) <= ATTENTION_THRESHOLDS.weakRssiDbm && bucket.to !== null })))}
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col span={6}>
          <SurveyCounts id="types" title={t('byType')} total={total}
            rows={(data?.types ?? []).map((row) => ({ ...row, label: row.key, to: list({ model: row.key }) }))} />
        </Col>
        <Col span={6}>
          <SurveyCounts id="firmware" title={t('byFirmware')} total={total}
            rows={(data?.firmware ?? []).map((row) => ({ ...row, label: formatVersion(row.key) || t('unknownFirmware'), to: row.key ? list({ firmwareVersion: row.key }) : undefined }))} />
        </Col>
        <Col span={6}>
          <SurveyCounts id="buildings" title={t('byBuilding')} total={total}
            rows={(data?.buildings ?? []).map((row) => ({ ...row, label: row.key || unplaced, to: row.key ? list({ building: row.key }) : undefined }))} />
        </Col>
        <Col span={6}>
          <SurveyCounts id="groups" title={t('byGroup')} total={total}
            rows={(data?.groups ?? []).map((row) => ({ key: String(row.id), label: row.name, count: row.count, to: list({ groupId: String(row.id) }) }))} />
        </Col>
      </Row>
    </div>
  );
}
