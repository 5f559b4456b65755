/** 设备信息: the lock's command queue (not final first, then the recent ones) with cancel on queued commands. */
import { type CommandRecord, commandEndpoints, type LockInformation, lockInformationEndpoints } from '@iot/contract';
import { Button, Card, Popconfirm, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useAllowed } from '../../hooks/useSession';
import { formatTime } from '../../components/logColumns';
import { CommandResult, StateBadge, TypeTag } from '../../components/CommandTags';

/** The queue card. */
export function QueueCard({ info }: { info: LockInformation }) {
  const { t } = useTranslation('command');
  const { t: ti } = useTranslation('information');
  const mayCancel = useAllowed('COMMAND_DOWN_LOG');
  const { run: cancel } = useApiMutation({
    mutationFn: (id: number) => call(commandEndpoints.cancel, { body: { id } }),
    success: t('canceled'), invalidate: [lockInformationEndpoints.information],
  });
  return (
    <Card
      size="small" title={ti('queue')} style={{ height: '100%' }}
      extra={mayCancel ? <Link to={`/commandDownLog?keyword=${info.lock.imei}`}>{ti('fullLog')}</Link> : undefined}
    >
      <Table<CommandRecord>
        rowKey="id" size="small" pagination={false} dataSource={info.commands} scroll={{ x: 'max-content' }} className="information-queue"
        locale={{ emptyText: ti('noCommands') }}
        columns={[
          { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime },
          { title: t('type'), dataIndex: 'type', render: (type: CommandRecord['type']) => <TypeTag type={type} /> },
          { title: t('state'), dataIndex: 'state', render: (state: CommandRecord['state']) => <StateBadge state={state} /> },
          { title: t('attempts'), dataIndex: 'attempts', align: 'right', render: (n: number, r) => `${n} / ${r.maxAttempts}` },
          { title: t('result'), key: 'result', render: (_: unknown, r) => <CommandResult record={r} /> },
          ...(mayCancel ? [{
            title: t('actions'), key: 'actions',
            render: (_: unknown, r: CommandRecord) => (r.state !== 'QUEUED' ? null : (
              <Popconfirm title={t('cancelConfirm')} okText={t('ok')} cancelText={t('no')} onConfirm={() => cancel(r.id)}>
                <Button type="link" size="small">{t('cancel')}</Button>
              </Popconfirm>
            )),
          }] : []),
        ]}
      />
    </Card>
  );
}
