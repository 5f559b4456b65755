/**
 * The four operation logs (用户/密码/卡/指纹操作日志, GET /iot/v1/operate{User,Password,Card,Fp}/log):
 * who did what to which lock user or credential on which lock, when, and what the lock answered
 * (the command's state and result); filters: time range, lock keyword, action. Refreshed live.
 */
import { CREDENTIAL_ACTIONS, type Endpoint, type OperationLogRecord } from '@iot/contract';
import { Form, Select, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DASH, formatTime, lockRefColumns } from '../../components/logColumns';
import { LogFilterItems, logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { CommandResult, StateBadge } from '../../components/CommandTags';

const REFETCH_MS = 5000;

/** One operation log, fed by `endpoint`. */
export function OperationLogPage({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useTranslation('credential');
  const { t: tLog } = useTranslation('deviceLog');
  const columns = useMemo<TableColumnsType<OperationLogRecord>>(() => [
    { title: t('operatedAt'), dataIndex: 'createdAt', render: formatTime, sorter: true },
    { title: t('operator'), dataIndex: 'operator' },
    { title: t('action'), dataIndex: 'action', render: (a: OperationLogRecord['action']) => t(`opActions.${a}`) },
    ...lockRefColumns<OperationLogRecord>(tLog),
    { title: t('target'), key: 'target', render: (_: unknown, r) => [r.kind ? t(`kinds.${r.kind}`) : t(`subjects.${r.subject}`), r.slot === null ? '' : `#${r.slot}`].join(' ') },
    { title: t('holder'), dataIndex: 'holderName', render: (v: string | null) => v ?? DASH },
    { title: t('commandState'), dataIndex: 'commandState', render: (s: OperationLogRecord['commandState']) => (s ? <StateBadge state={s} /> : DASH) },
    { title: t('answer'), key: 'answer', render: (_: unknown, r) => <CommandResult record={{ resultCode: r.resultCode, resultDetail: r.resultDetail, resultSlot: null }} /> },
  ], [t, tLog]);
  const filters = (
    <>
      <LogFilterItems />
      <Form.Item name="action" label={t('action')}>
        <Select style={{ width: 120 }} options={[{ value: 'all', label: t('all') }, ...CREDENTIAL_ACTIONS.map((a) => ({ value: a, label: t(`opActions.${a}`) }))]} />
      </Form.Item>
    </>
  );
  return (
    <ServerTable<OperationLogRecord>
      defaultSort={{ field: 'createdAt' }}
      endpoint={endpoint}
      columns={columns}
      rowKey="id"
      filters={filters}
      initialFilters={{ action: 'all' }}
      toQuery={logQuery}
      refetchInterval={REFETCH_MS}
    />
  );
}
