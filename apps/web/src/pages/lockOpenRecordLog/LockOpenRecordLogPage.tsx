/**
 * 开锁日志: unlock attempts (GET /iot/v1/lockOpenRecord/list), newest first, filtered by time range,
 * lock, method and result, exportable, refreshed in the background every 5 s.
 */
import { openRecordEndpoints, type OpenRecordRecord, protocol } from '@iot/contract';
import { Form, Select, Tag, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DASH, formatTime, lockRefColumns } from '../../components/logColumns';
import { LogFilterItems, logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';

const REFETCH_MS = 5000;

/** The unlock-record log page. */
export default function LockOpenRecordLogPage() {
  const { t } = useTranslation('deviceLog');
  const columns = useMemo<TableColumnsType<OpenRecordRecord>>(() => [
    { title: t('lockTime'), dataIndex: 'lockTime', render: formatTime, sorter: true },
    ...lockRefColumns<OpenRecordRecord>(t),
    { title: t('method'), dataIndex: 'method', render: (method: string) => t(`methods.${method}`) },
    {
      title: t('result'), dataIndex: 'success',
      render: (success: boolean) => <Tag color={success ? 'success' : 'error'}>{success ? t('success') : t('failed')}</Tag>,
    },
    { title: t('slot'), dataIndex: 'slot', align: 'right', render: (value: number | null) => value ?? DASH },
    { title: t('userSlot'), dataIndex: 'userSlot', align: 'right', render: (value: number | null) => value ?? DASH },
    { title: t('receivedAt'), dataIndex: 'receivedAt', render: formatTime, sorter: true },
  ], [t]);
  const filters = (
    <>
      <LogFilterItems />
      <Form.Item name="method" label={t('method')}>
        <Select style={{ width: 130 }} options={[{ value: 'all', label: t('all') }, ...protocol.OPEN_METHODS.map((m) => ({ value: m, label: t(`methods.${m}`) }))]} />
      </Form.Item>
      <Form.Item name="success" label={t('result')}>
        <Select style={{ width: 100 }} options={[{ value: 'all', label: t('all') }, { value: 'true', label: t('success') }, { value: 'false', label: t('failed') }]} />
      </Form.Item>
    </>
  );
  return (
    <ServerTable<OpenRecordRecord>
      defaultSort={{ field: 'receivedAt' }}
      endpoint={openRecordEndpoints.list}
      exportEndpoint={openRecordEndpoints.export}
      columns={columns}
      rowKey="id"
      filters={filters}
      initialFilters={{ method: 'all', success: 'all' }}
      toQuery={logQuery}
      refetchInterval={REFETCH_MS}
    />
  );
}
