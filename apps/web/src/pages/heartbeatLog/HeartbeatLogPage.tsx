/**
 * 心跳日志: one lock's battery and signal charts over a time range (default: the last 24 h) above the
 * heartbeat table (GET /iot/v1/logHeartbeat/list: the picked lock, or every lock when cleared);
 * refreshed in the background every 5 s.
 */
import { type HeartbeatLogRecord, heartbeatLogEndpoints } from '@iot/contract';
import { DatePicker, Space, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LockSelect } from '../../components/LockSelect';
import { formatTime, lockRefColumns } from '../../components/logColumns';
import { LogFilterItems, logQuery } from '../../components/logFilters';
import { PageSpin } from '../../components/PageSpin';
import { ServerTable } from '../../components/ServerTable';

const HeartbeatCharts = lazy(() => import('./HeartbeatCharts'));
const REFETCH_MS = 5000;

/** The heartbeat log page. */
export default function HeartbeatLogPage() {
  const { t } = useTranslation('deviceLog');
  const [imei, setImei] = useState<string>();
  const [range, setRange] = useState<(Dayjs | null)[] | null>(null);
  const columns = useMemo<TableColumnsType<HeartbeatLogRecord>>(() => [
    { title: t('receivedAt'), dataIndex: 'receivedAt', render: formatTime },
    ...lockRefColumns<HeartbeatLogRecord>(t),
    { title: `${t('battery')} (%)`, dataIndex: 'battery', align: 'right' },
    { title: `${t('rssi')} (dBm)`, dataIndex: 'rssi', align: 'right' },
    { title: `${t('snr')} (dB)`, dataIndex: 'snr', align: 'right' },
    { title: t('firmware'), dataIndex: 'firmwareVersion' },
    { title: t('seq'), dataIndex: 'seq', align: 'right' },
    { title: t('deviceTime'), dataIndex: 'deviceTs', render: formatTime },
  ], [t]);
  return (
    <div>
      <div className="page-card" style={{ marginBottom: 16 }}>
        <Space wrap style={{ marginBottom: imei ? 16 : 0 }}>
          <LockSelect value={imei} onChange={setImei} autoSelectFirst />
          <DatePicker.RangePicker showTime allowEmpty={[true, true]} value={range as [Dayjs, Dayjs] | null} onChange={(value) => setRange(value)} />
        </Space>
        {imei && (
          <Suspense fallback={<PageSpin />}>
            <HeartbeatCharts imei={imei} startTime={range?.[0]?.toISOString()} endTime={range?.[1]?.toISOString()} refetchInterval={REFETCH_MS} />
          </Suspense>
        )}
      </div>
      <ServerTable<HeartbeatLogRecord>
        endpoint={heartbeatLogEndpoints.list}
        exportEndpoint={heartbeatLogEndpoints.export}
        columns={columns}
        rowKey="id"
        filters={<LogFilterItems />}
        toQuery={(values) => ({ ...logQuery(values), imei })}
        refetchInterval={REFETCH_MS}
      />
    </div>
  );
}
