/**
 * 设备信息: the configuration the lock reported beside the one it will hold once the pending pushes
 * arrive (desired), field by field with labels — never raw JSON — and the newest push's state.
 */
import type { LockInformation, protocol } from '@iot/contract';
import { Card, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/logColumns';
import { StateBadge } from '../../components/CommandTags';

const FIELDS = ['volume', 'autoLockS', 'heartbeatIntervalS', 'wrongAttemptLimit', 'language'] as const satisfies readonly (keyof protocol.LockConfig)[];

/** The configuration card. */
export function ConfigCard({ config }: { config: LockInformation['config'] }) {
  const { t } = useTranslation('command');
  const { t: ti } = useTranslation('information');
  const show = (field: (typeof FIELDS)[number], value: unknown) =>
    value === undefined ? '—' : field === 'language' ? t(`languages.${String(value)}`) : String(value);
  const rows = FIELDS.map((field) => ({
    field, reported: config.reported?.[field], desired: config.desired?.[field],
  }));
  const last = config.lastPush;
  return (
    <Card
      size="small" title={ti('configuration')} style={{ height: '100%' }}
      extra={last ? <Space size={4}>{ti('lastPush')} {formatTime(last.createdAt)} <StateBadge state={last.state} /></Space> : ti('neverPushed')}
    >
      <Table
        rowKey="field" size="small" pagination={false} dataSource={rows} className="information-config"
        columns={[
          { title: ti('field'), dataIndex: 'field', render: (field: (typeof FIELDS)[number]) => t(field) },
          { title: ti('reported'), dataIndex: 'reported', render: (value, row) => show(row.field, value) },
          {
            title: ti('desired'), dataIndex: 'desired',
            render: (value, row) => (
              <Space size={4}>
                {show(row.field, value)}
                {value !== undefined && value !== row.reported ? <Tag color="processing">{ti('pending')}</Tag> : null}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
