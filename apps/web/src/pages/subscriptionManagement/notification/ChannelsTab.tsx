/**
 * 通知渠道: the data centre's notification channels with their masked secrets and last test
 * result; add / edit (ChannelModal), send a test message (its result as a toast and in the row) and
 * delete after a confirmation.
 */
import { type NotificationChannelRecord, notificationEndpoints as api } from '@iot/contract';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Space, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useApiMutation } from '../../../api/useApiMutation';
import { useApiQuery } from '../../../api/useApiQuery';
import { useMessage } from '../../../components/appMessage';
import { CHANNEL_TABLE_WIDTH, channelColumns } from './channelColumns';
import { ChannelModal } from './ChannelModal';

/** The channel table with its form. */
export function ChannelsTab() {
  const { t } = useTranslation('notification');
  const message = useMessage();
  const channels = useApiQuery(api.channel.list);
  const [editing, setEditing] = useState<{ record?: NotificationChannelRecord; open: boolean }>({ open: false });
  const test = useApiMutation({
    mutationFn: (id: number) => call(api.channel.test, { body: { id } }), invalidate: [api.channel.list],
    onSuccess: (result) => (result.sent ? message.success(t('testOk', { ms: result.latencyMs })) : message.error(t('testError', { error: result.error ?? result.status }))),
  });
  const remove = useApiMutation({ mutationFn: (id: number) => call(api.channel.delete, { body: { id } }), success: t('deleted'), invalidate: [api.channel.list, api.rule.list] });
  const testing = test.isPending ? test.variables : undefined;
  const columns = useMemo(() => channelColumns(t, {
    edit: (record) => setEditing({ record, open: true }),
    test: (record) => void test.run(record.id),
    remove: (record) => void remove.run(record.id),
    testing,
  }), [t, test.run, remove.run, testing]);

  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle" className="page-card">
      <Space>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true })}>{t('addChannel')}</Button>
        <Button icon={<ReloadOutlined />} loading={channels.isFetching} onClick={() => void channels.refetch()}>{t('refresh')}</Button>
      </Space>
      <Table<NotificationChannelRecord>
        rowKey="id" size="middle" columns={columns} dataSource={channels.data ?? []} loading={channels.isLoading}
        pagination={false} tableLayout="fixed" scroll={{ x: CHANNEL_TABLE_WIDTH }}
      />
      <ChannelModal {...editing} onClose={() => setEditing((s) => ({ ...s, open: false }))} />
    </Space>
  );
}
