/**
 * One lock's command queue (GET /iot/v1/logDownCommand/simpleList), refreshed every 2 s: commands not
 * final (oldest first) and the recent ones, whether the lock is reachable now, and when it is next
 * expected to wake up (last uplink + heartbeat interval).
 */
import { commandEndpoints, type CommandRecord } from '@iot/contract';
import { Descriptions, Drawer, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/useApiQuery';
import { LockLink } from '../../components/LockLink';
import { formatTime } from '../../components/logColumns';
import { CommandResult, StateBadge, TypeTag } from '../../components/CommandTags';

/** Drawer for lock `lockId` (closed when undefined). */
export function QueueDrawer({ lockId, onClose }: { lockId: number | undefined; onClose: () => void }) {
  const { t } = useTranslation('command');
  return (
    <Drawer open={lockId !== undefined} onClose={onClose} size="large" title={t('queue')} destroyOnHidden>
      {lockId !== undefined && <QueueBody lockId={lockId} />}
    </Drawer>
  );
}

function QueueBody({ lockId }: { lockId: number }) {
  const { t } = useTranslation('command');
  const { data } = useApiQuery(commandEndpoints.simpleList, { lockId }, { refetchInterval: 2000 });
  if (!data) return null;
  return (
    <>
      <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('imei')}><LockLink imei={data.imei} /></Descriptions.Item>
        <Descriptions.Item label={t('mode')}>{data.alwaysOnline ? t('alwaysOnline') : t('sleeping')}</Descriptions.Item>
        <Descriptions.Item label={t('lastUplink')}>{formatTime(data.lastUplinkAt)}</Descriptions.Item>
        <Descriptions.Item label={t('nextWake')}>
          <span className="queue-next-wake">{data.alwaysOnline ? '—' : formatTime(data.nextWakeAt)}</span>
          {data.awake && <Tag color="success" style={{ marginLeft: 8 }}>{t('awakeNow')}</Tag>}
        </Descriptions.Item>
      </Descriptions>
      <Table<CommandRecord>
        rowKey="id" size="small" pagination={false} dataSource={data.commands} scroll={{ x: 'max-content' }}
        columns={[
          { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime },
          { title: t('type'), dataIndex: 'type', render: (type: CommandRecord['type']) => <TypeTag type={type} /> },
          { title: t('state'), dataIndex: 'state', render: (state: CommandRecord['state']) => <StateBadge state={state} /> },
          { title: t('attempts'), dataIndex: 'attempts', align: 'right' },
          { title: t('sentAt'), dataIndex: 'sentAt', render: formatTime },
          { title: t('result'), key: 'result', render: (_: unknown, r) => <CommandResult record={r} /> },
        ]}
      />
    </>
  );
}
