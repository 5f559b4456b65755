/**
 * 门锁配置: the tenant's locks with the configuration each last reported (GET /iot/v1/lockConfigList),
 * connectivity (always online / NB sleeping), pending commands and next expected wake-up; per lock a
 * config push form, a confirmed clock sync (POST /iot/v1/lockDevice/clockSync; also for the selected
 * locks at once) and its command queue; one configuration pushed to the selected locks or to a group at
 * once (BatchConfigModal, POST /iot/v1/lockConfig/batch).
 */
import { commandEndpoints, type LockConfigRecord } from '@iot/contract';
import { Badge, Button, Form, Input, Popconfirm, Space, Tag, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { formatTime } from '../../components/logColumns';
import { LockLink } from '../../components/LockLink';
import { ServerTable } from '../../components/ServerTable';
import { BatchConfigModal } from './BatchConfigModal';
import { ConfigItems } from './ConfigItems';
import { ConfigModal } from '../../components/LockConfigModal';
import { QueueDrawer } from './QueueDrawer';

const REFETCH_MS = 3000;

function toQuery(values: Record<string, unknown>) {
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : '';
  return { keyword: keyword || undefined };
}

/** The lock configuration page. */
export default function LockConfigPage() {
  const { t } = useTranslation('command');
  const [editing, setEditing] = useState<LockConfigRecord>();
  const [queueOf, setQueueOf] = useState<number>();
  const [batch, setBatch] = useState<{ imeis: string[]; clear?: () => void }>();
  const { run: sync } = useApiMutation({
    mutationFn: async (lockIds: readonly number[]) => {
      for (const lockId of lockIds) await call(commandEndpoints.clockSync, { body: { lockId } });
    },
    success: (_, lockIds) => (lockIds.length > 1 ? t('queuedMany', { count: lockIds.length }) : t('queued')),
    invalidate: [commandEndpoints.lockConfigList, commandEndpoints.simpleList],
  });

  const columns = useMemo<TableColumnsType<LockConfigRecord>>(() => {
    return [
      { title: t('imei'), dataIndex: 'imei', fixed: 'left', render: (imei: string) => <LockLink imei={imei} /> },
      { title: t('lock'), dataIndex: 'name' },
      { title: t('room'), dataIndex: 'room' },
      { title: t('model'), dataIndex: 'model' },
      {
        title: t('mode'), dataIndex: 'alwaysOnline',
        render: (always: boolean, r) => (
          <Space size={4}>
            <Tag color={always ? 'green' : 'purple'}>{always ? t('alwaysOnline') : t('sleeping')}</Tag>
            <Badge status={r.online ? 'success' : 'default'} text={r.online ? t('online') : t('offline')} />
          </Space>
        ),
      },
      { title: t('config'), dataIndex: 'config', render: (config: LockConfigRecord['config']) => <ConfigItems config={config} /> },
      { title: t('pending'), dataIndex: 'pending', align: 'right' },
      { title: t('nextWake'), dataIndex: 'nextWakeAt', render: (value: string | null, r) => (r.alwaysOnline ? '—' : formatTime(value)) },
      {
        title: t('actions'), key: 'actions', fixed: 'right',
        render: (_: unknown, lock) => (
          <Space size="small">
            <Button type="link" size="small" onClick={() => setEditing(lock)}>{t('pushConfig')}</Button>
            <Popconfirm title={t('clockSyncConfirm')} okText={t('ok')} cancelText={t('no')} onConfirm={() => sync([lock.id])}>
              <Button type="link" size="small">{t('clockSync')}</Button>
            </Popconfirm>
            <Button type="link" size="small" onClick={() => setQueueOf(lock.id)}>{t('queue')}</Button>
          </Space>
        ),
      },
    ];
  }, [t, sync]);

  const filters = (
    <Form.Item name="keyword" label={t('keyword')}>
      <Input allowClear placeholder={t('keywordPlaceholder')} style={{ width: 220 }} />
    </Form.Item>
  );
  return (
    <>
      <ServerTable<LockConfigRecord>
        endpoint={commandEndpoints.lockConfigList} columns={columns} rowKey="id" filters={filters} toQuery={toQuery} refetchInterval={REFETCH_MS}
        toolbar={<Button id="batch-config" onClick={() => setBatch({ imeis: [] })}>{t('batchConfig')}</Button>}
        batchActions={(selected, clear, rows) => (
          <>
            <Button id="batch-config-selected" onClick={() => setBatch({ imeis: rows.map((row) => row.imei), clear })}>{t('batchConfigSelected', { count: selected.length })}</Button>
            <Popconfirm title={t('clockSyncManyConfirm', { count: selected.length })} okText={t('ok')} cancelText={t('no')}
              onConfirm={() => sync(selected.map(Number)).then(clear)}>
              <Button>{t('clockSyncMany', { count: selected.length })}</Button>
            </Popconfirm>
          </>
        )}
      />
      <BatchConfigModal open={batch !== undefined} imeis={batch?.imeis ?? []} onClose={() => setBatch(undefined)}
        onDone={() => { batch?.clear?.(); setBatch(undefined); }} />
      <ConfigModal lock={editing} onClose={() => setEditing(undefined)} onDone={() => { setEditing(undefined); setQueueOf(editing?.id); }} />
      <QueueDrawer lockId={queueOf} onClose={() => setQueueOf(undefined)} />
    </>
  );
}
