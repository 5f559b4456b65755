/**
 * 上报日志: every event uplink of the tenant's locks (GET /iot/v1/logUpCommand/list), newest first,
 * filtered by time range, lock and type, exportable, refreshed in the background every 5 s; payloads as
 * labelled fields in the operator's language, their JSON one click away (MessageData).
 */
import { EVENT_UPLINK_TYPES, type UplinkLogRecord, uplinkLogEndpoints } from '@iot/contract';
import { Form, Select, Tag, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, lockRefColumns } from '../../components/logColumns';
import { MessageData } from '../../components/MessageData';
import { LogFilterItems, logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';

const REFETCH_MS = 5000;

/** The uplink log page. */
export default function UplinkLogPage() {
  const { t } = useTranslation('deviceLog');
  const columns = useMemo<TableColumnsType<UplinkLogRecord>>(() => [
    { title: t('receivedAt'), dataIndex: 'receivedAt', render: formatTime, sorter: true },
    ...lockRefColumns<UplinkLogRecord>(t),
    { title: t('type'), dataIndex: 'type', render: (type: string) => <Tag color="blue">{t(`uplinkTypes.${type}`)}</Tag> },
    { title: t('seq'), dataIndex: 'seq', align: 'right' },
    {
      title: t('data'), dataIndex: 'data',
      width: 360, minWidth: 220, render: (data: Record<string, unknown>) => <MessageData data={data} />,
    },
    { title: t('deviceTime'), dataIndex: 'deviceTs', render: formatTime },
  ], [t]);
  const filters = (
    <>
      <LogFilterItems />
      <Form.Item name="type" label={t('type')}>
        <Select style={{ width: 140 }} options={[{ value: 'all', label: t('all') }, ...EVENT_UPLINK_TYPES.map((type) => ({ value: type, label: t(`uplinkTypes.${type}`) }))]} />
      </Form.Item>
    </>
  );
  return (
    <ServerTable<UplinkLogRecord>
      defaultSort={{ field: 'receivedAt' }}
      endpoint={uplinkLogEndpoints.list}
      exportEndpoint={uplinkLogEndpoints.export}
      columns={columns}
      rowKey="id"
      filters={filters}
      initialFilters={{ type: 'all' }}
      toQuery={logQuery}
      refetchInterval={REFETCH_MS}
    />
  );
}
