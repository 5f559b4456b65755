/**
 * 开锁日志: unlock attempts (GET /iot/v1/lockOpenRecord/list), newest first, filtered by time range,
 * lock, method, result and why the lock refused (outside the schedule, holiday mode, user
 * type), with the operator of a remote unlock; exportable, refreshed in the background every 5 s.
 */
import { ACCESS_REFUSAL_LABELS, ACCESS_REFUSALS, type AccessRefusal, openRecordEndpoints, type OpenRecordRecord, protocol } from '@iot/contract';
import { Form, Select, Tag, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../hooks/useSession';
import { DASH, formatTime, lockRefColumns } from '../../components/logColumns';
import { LogFilterItems, logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';

const REFETCH_MS = 5000;

/** The unlock-record log page. */
export default function LockOpenRecordLogPage() {
  const { t } = useTranslation('deviceLog');
  const language = useLanguage();
  const columns = useMemo<TableColumnsType<OpenRecordRecord>>(() => [
    { title: t('lockTime'), dataIndex: 'lockTime', render: formatTime, sorter: true },
    ...lockRefColumns<OpenRecordRecord>(t),
    { title: t('method'), dataIndex: 'method', render: (method: string) => t(`methods.${method}`) },
    {
      title: t('result'), dataIndex: 'success',
      render: (success: boolean) => <Tag color={success ? 'success' : 'error'}>{success ? t('success') : t('failed')}</Tag>,
    },
    { title: t('refusal'), dataIndex: 'refusal', render: (value: AccessRefusal | null) => (value ? <span className="open-refusal">{ACCESS_REFUSAL_LABELS[value][language]}</span> : DASH) },
    { title: t('operator'), dataIndex: 'operator', render: (value: string | null) => value ?? DASH },
    { title: t('slot'), dataIndex: 'slot', align: 'right', render: (value: number | null) => value ?? DASH },
    { title: t('userSlot'), dataIndex: 'userSlot', align: 'right', render: (value: number | null) => value ?? DASH },
    { title: t('receivedAt'), dataIndex: 'receivedAt', render: formatTime, sorter: true },
  ], [t, language]);
  const filters = (
    <>
      <LogFilterItems />
      <Form.Item name="method" label={t('method')}>
        <Select style={{ width: 130 }} options={[{ value: 'all', label: t('all') }, ...protocol.OPEN_METHODS.map((m) => ({ value: m, label: t(`methods.${m}`) }))]} />
      </Form.Item>
      <Form.Item name="success" label={t('result')}>
        <Select style={{ width: 100 }} options={[{ value: 'all', label: t('all') }, { value: 'true', label: t('success') }, { value: 'false', label: t('failed') }]} />
      </Form.Item>
      <Form.Item name="refusal" label={t('refusal')}>
        <Select style={{ width: 170 }} options={[{ value: 'all', label: t('all') }, ...ACCESS_REFUSALS.map((r) => ({ value: r, label: ACCESS_REFUSAL_LABELS[r][language] }))]} />
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
      initialFilters={{ method: 'all', success: 'all', refusal: 'all' }}
      toQuery={logQuery}
      refetchInterval={REFETCH_MS}
    />
  );
}
