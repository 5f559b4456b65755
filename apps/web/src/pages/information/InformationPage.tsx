/**
 * 设备信息 (/Information?imei=): everything about one lock on one page, from one read (GET
 * /iot/v1/lockDevice/information, refreshed every 5 s) plus the 7-day battery / signal charts (lazy
 * ECharts): identity, type, location and groups with the registry and configuration actions; live state
 * and next expected wake; reported vs desired configuration; credential slots and drift, the lock's own inventory against the platform (DriftCard); the command
 * queue (cancel); its OTA history; the latest alarms, unlock records and uplinks, each linking to its full log. Without
 * an IMEI (or with an unknown one) the page offers a lock picker.
 */
import { lockInformationEndpoints } from '@iot/contract';
import { Card, Col, Empty, Row, Space, Spin } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useApiQuery } from '../../api/useApiQuery';
import { useAllowed } from '../../hooks/useSession';
import { LockSelect } from '../../components/LockSelect';
import { ConfigCard } from './ConfigCard';
import { CredentialCard } from './CredentialCard';
import { DriftCard } from './DriftCard';
import { RemoteUnlockCard } from './RemoteUnlockCard';
import { WorkOrderCard } from './WorkOrderCard';
import { IdentityCard } from './IdentityCard';
import { LiveStateCard } from './LiveStateCard';
import { OtaHistoryCard } from './OtaHistoryCard';
import { QueueCard } from './QueueCard';
import { RecentCards } from './RecentCards';

const HeartbeatCharts = lazy(() => import('../../components/charts/HeartbeatCharts'));

const REFETCH_MS = 5000;
const CHART_REFETCH_MS = 60_000;

/** The device information page. */
export default function InformationPage() {
  // Every namespace the sections use, loaded at once rather than one section after another.
  const { t } = useTranslation(['information', 'lock', 'command', 'deviceLog', 'billing', 'firmware', 'workOrder']);
  const [params, setParams] = useSearchParams();
  const imei = (params.get('imei') ?? '').trim();
  const valid = /^\d{15}$/.test(imei);
  const { data, isError } = useApiQuery(lockInformationEndpoints.information, { imei }, { refetchInterval: REFETCH_MS, enabled: valid });
  const [since] = useState(() => dayjs().subtract(7, 'day').startOf('minute').toISOString());
  const mayViewHeartbeats = useAllowed('HEARTBEAT_LOG');
  const info = valid ? data : undefined;

  const picker = (
    <Space>
      <span>{t('pickLock')}</span>
      <div style={{ width: 360 }}>
        <LockSelect id="information-lock" value={valid ? imei : undefined} onChange={(next) => next && setParams({ imei: next })} />
      </div>
    </Space>
  );
  if (!info || info.lock.imei !== imei) {
    // A chosen lock still loading shows that it loads, not "pick a lock".
    const loading = valid && !isError;
    return (
      <Card>
        {picker}
        {loading
          ? <div className="information-loading" style={{ marginTop: 48, textAlign: 'center' }}><Spin tip={t('loadingLock', { imei })}><div style={{ height: 80 }} /></Spin></div>
          : <Empty style={{ marginTop: 48 }} description={valid && isError ? t('notFound', { imei }) : t('noLock')} />}
      </Card>
    );
  }
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} className="information-page">
      <IdentityCard info={info} extra={picker} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}><LiveStateCard info={info} /></Col>
        <Col xs={24} xl={14}><ConfigCard config={info.config} /></Col>
      </Row>
      <Card size="small" title={t('charts')} extra={mayViewHeartbeats ? <Link to={`/heartbeatLog?imei=${imei}`}>{t('fullLog')}</Link> : undefined}>
        <Suspense fallback={<div style={{ height: 300 }} />}>
          <HeartbeatCharts imei={imei} startTime={since} refetchInterval={CHART_REFETCH_MS} />
        </Suspense>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}><CredentialCard rows={info.credentials} /></Col>
        <Col xs={24} xl={14}><QueueCard info={info} /></Col>
      </Row>
      <WorkOrderCard imei={imei} />
      <DriftCard lockId={info.lock.id} />
      <RemoteUnlockCard lockId={info.lock.id} />
      <OtaHistoryCard imei={imei} />
      <RecentCards info={info} />
    </Space>
  );
}
