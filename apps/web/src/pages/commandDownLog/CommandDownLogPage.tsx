/**
 * 下发日志: every downlink command of the tenant (GET /iot/v1/logDownCommand/list), newest first,
 * filtered by time range, lock, type and state, with live state tags (refetched in the background
 * every 2 s), a confirmed cancel on QUEUED rows (one, or the selected ones) and a drawer with the payload actually sent;
 * parameters as labelled fields in the operator's language, their JSON one click away (MessageData).
 */
import { type CommandRecord, commandEndpoints, protocol } from '@iot/contract';
import { Button, Form, Popconfirm, Select, Space, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { formatTime, lockRefColumns } from '../../components/logColumns';
import { MessageData } from '../../components/MessageData';
import { LogFilterItems, logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { CommandResult, StateBadge, TypeTag } from '../../components/CommandTags';
import { PayloadDrawer } from './PayloadDrawer';

/** Live refresh of the states, ms. */
const REFETCH_MS = 2000;

/** The downlink log page. */
export default function CommandDownLogPage() {
  const { t } = useTranslation('command');
  const { t: tLog } = useTranslation('deviceLog');
  const [shown, setShown] = useState<number>();
  const { run: cancel } = useApiMutation({
    mutationFn: async (ids: readonly number[]) => {
      for (const id of ids) await call(commandEndpoints.cancel, { body: { id } });
    },
    success: (_, ids) => (ids.length > 1 ? t('canceledMany', { count: ids.length }) : t('canceled')),
    invalidate: [commandEndpoints.list],
  });

  const columns = useMemo<TableColumnsType<CommandRecord>>(() => {
    return [
      { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime, sorter: true },
      ...lockRefColumns<CommandRecord>(tLog),
      { title: t('type'), dataIndex: 'type', render: (type: CommandRecord['type']) => <TypeTag type={type} /> },
      { title: t('state'), dataIndex: 'state', render: (state: CommandRecord['state']) => <StateBadge state={state} /> },
      { title: t('attempts'), dataIndex: 'attempts', align: 'right', render: (n: number, r) => `${n} / ${r.maxAttempts}` },
      {
        title: t('data'), dataIndex: 'data',
        width: 320, minWidth: 220, render: (data: Record<string, unknown>) => <MessageData data={data} />,
      },
      { title: t('sentAt'), dataIndex: 'sentAt', render: formatTime },
      { title: t('completedAt'), dataIndex: 'completedAt', render: formatTime, sorter: true },
      { title: t('result'), key: 'result', render: (_: unknown, r) => <CommandResult record={r} /> },
      { title: t('createdBy'), dataIndex: 'createdBy' },
      {
        title: t('actions'), key: 'actions', fixed: 'right',
        render: (_: unknown, record) => (
          <Space size="small">
            <Button type="link" size="small" onClick={() => setShown(record.id)}>{t('payload')}</Button>
            {record.state === 'QUEUED' && (
              <Popconfirm title={t('cancelConfirm')} okText={t('ok')} cancelText={t('no')} onConfirm={() => cancel([record.id])}>
                <Button type="link" size="small" danger>{t('cancel')}</Button>
              </Popconfirm>
            )}
          </Space>
        ),
      },
    ];
  }, [t, tLog, cancel]);

  const filters = (
    <>
      <LogFilterItems />
      <Form.Item name="type" label={t('type')}>
        <Select style={{ width: 140 }} options={[{ value: 'all', label: t('all') }, ...protocol.DOWNLINK_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))]} />
      </Form.Item>
      <Form.Item name="state" label={t('state')}>
        <Select style={{ width: 120 }} options={[{ value: 'all', label: t('all') }, ...protocol.COMMAND_STATES.map((state) => ({ value: state, label: t(`states.${state}`) }))]} />
      </Form.Item>
    </>
  );
  return (
    <>
      <ServerTable<CommandRecord>
        defaultSort={{ field: 'createdAt' }}
        endpoint={commandEndpoints.list}
        columns={columns}
        rowKey="id"
        filters={filters}
        initialFilters={{ type: 'all', state: 'all' }}
        toQuery={logQuery}
        refetchInterval={REFETCH_MS}
        selectable={(record) => record.state === 'QUEUED'}
        batchActions={(selected, clear) => (
          <Popconfirm title={t('cancelManyConfirm', { count: selected.length })} okText={t('ok')} cancelText={t('no')} okButtonProps={{ danger: true }}
            onConfirm={() => cancel(selected.map(Number)).then(clear)}>
            <Button danger>{t('cancelMany', { count: selected.length })}</Button>
          </Popconfirm>
        )}
      />
      <PayloadDrawer id={shown} onClose={() => setShown(undefined)} />
    </>
  );
}
