/**
 * 心跳日志: ONE filter bar (lock, time range, keyword) drives the heartbeat table (GET
 * /iot/v1/logHeartbeat/list) and, when one lock is picked, its battery and signal charts above it.
 * "All locks" shows the table alone. The picked lock and the range live in the URL (`?imei=`, also the
 * target of every lock link, components/LockLink.tsx); a first visit picks the first lock ("all locks"
 * in a data centre without one) and asks for no rows before that. Refreshed
 * in the background every 5 s.
 */
import { type HeartbeatLogRecord, heartbeatLogEndpoints, formatVersion } from '@iot/contract';
import { Form, type TableColumnsType } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LockSelect } from '../../components/LockSelect';
import { formatTime, lockRefColumns } from '../../components/logColumns';
import { LogFilterItems, logQuery } from '../../components/logFilters';
import { PageSpin } from '../../components/PageSpin';
import { ServerTable } from '../../components/ServerTable';

const HeartbeatCharts = lazy(() => import('../../components/charts/HeartbeatCharts'));
const REFETCH_MS = 5000;
/** URL value of the lock picker meaning "every lock". */
const ALL = 'all';

/** The heartbeat log page. */
export default function HeartbeatLogPage() {
  const { t } = useTranslation('deviceLog');
  const [params, setParams] = useSearchParams();
  const imei = params.get('imei') ?? undefined;
  const columns = useMemo<TableColumnsType<HeartbeatLogRecord>>(() => [
    { title: t('receivedAt'), dataIndex: 'receivedAt', render: formatTime, sorter: true },
    ...lockRefColumns<HeartbeatLogRecord>(t),
    { title: `${t('battery')} (%)`, dataIndex: 'battery', align: 'right' },
    { title: `${t('rssi')} (dBm)`, dataIndex: 'rssi', align: 'right' },
    { title: `${t('snr')} (dB)`, dataIndex: 'snr', align: 'right' },
    { title: t('firmware'), dataIndex: 'firmwareVersion', render: (value: string) => formatVersion(value) },
    { title: t('seq'), dataIndex: 'seq', align: 'right' },
    { title: t('deviceTime'), dataIndex: 'deviceTs', render: formatTime },
  ], [t]);
  // The lock applies at once (the rest of the bar on 查询); the first lock when the URL names none.
  const pickLock = (next: string | undefined) => {
    const updated = new URLSearchParams(params);
    updated.set('imei', next ?? ALL);
    updated.delete('current');
    setParams(updated, { replace: !imei });
  };
  const filters = (
    <>
      <Form.Item label={t('lock')}>
        <LockSelect value={imei} onChange={pickLock} autoSelectFirst allValue={ALL} />
      </Form.Item>
      <LogFilterItems keyword={false} />
    </>
  );
  const oneLock = imei && imei !== ALL ? imei : undefined;
  const charts = oneLock && (
    <div style={{ marginBottom: 16 }}>
      <Suspense fallback={<PageSpin />}>
        <HeartbeatCharts imei={oneLock} startTime={params.get('startTime') ?? undefined} endTime={params.get('endTime') ?? undefined} refetchInterval={REFETCH_MS} />
      </Suspense>
    </div>
  );
  return (
    <ServerTable<HeartbeatLogRecord>
      defaultSort={{ field: 'receivedAt' }}
      endpoint={heartbeatLogEndpoints.list}
      exportEndpoint={heartbeatLogEndpoints.export}
      columns={columns}
      rowKey="id"
      filters={filters}
      toQuery={(values) => ({ ...logQuery(values), imei })}
      toRequest={(query) => ({ ...query, imei: query.imei === ALL ? undefined : query.imei })}
      header={charts}
      enabled={imei !== undefined}
      refetchInterval={REFETCH_MS}
    />
  );
}
