/**
 * 设备信息: the lock's own inventory against the platform per table (GET
 * /iot/v1/lockDevice/drift, refreshed by the live stream's credential.drift): slots on the lock and on
 * the platform, unmanaged slots (adopt for a lock user of this lock, or delete from the lock) and
 * missing rows (re-queue, or mark lost); before the lock's first report, its slots show as a dash. Holders of LOCK_DRIFT_RESOLVE get the actions and can ask the
 * lock for a fresh inventory (queryInventory downlink).
 */
import { credentialEndpoints, type LockDriftRecord, lockDriftEndpoints } from '@iot/contract';
import { Button, Card, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useAllowed } from '../../hooks/useSession';
import { DASH, formatTime } from '../../components/logColumns';

type Row = LockDriftRecord['tables'][number];
type Missing = Row['missing'][number];
const refresh = [lockDriftEndpoints.drift, credentialEndpoints.userList, credentialEndpoints.passwordList];

/** One resolving action: its toast and what it refreshes. */
function useDriftAction<V>(run: (vars: V) => Promise<unknown>, done: string) {
  return useApiMutation<V>({ mutationFn: run, success: done, invalidate: refresh });
}

/** The drift card of lock `lockId`. */
export function DriftCard({ lockId }: { lockId: number }) {
  const { t } = useTranslation('information');
  const mayResolve = useAllowed('LOCK_DRIFT_RESOLVE');
  const { data } = useApiQuery(lockDriftEndpoints.drift, { lockId });
  const { data: users } = useApiQuery(credentialEndpoints.userList, { lockId, current: 1, size: 100 }, { enabled: mayResolve });
  const done = t('driftDone');
  const ask = useDriftAction<void>(() => call(lockDriftEndpoints.queryInventory, { body: { lockId } }), done);
  const adopt = useDriftAction((body: { id: number; lockUserId: number }) => call(lockDriftEndpoints.adopt, { body }), done);
  const remove = useDriftAction((id: number) => call(lockDriftEndpoints.deleteUnmanaged, { body: { id } }), done);
  const requeue = useDriftAction((m: Missing) => call(lockDriftEndpoints.requeue, { body: { subject: m.subject, id: m.id } }), done);
  const lost = useDriftAction((m: Missing) => call(lockDriftEndpoints.markLost, { body: { subject: m.subject, id: m.id } }), done);
  const userOptions = (users?.records ?? []).map((user) => ({ value: user.id, label: `${user.name} (#${user.userSlot})` }));

  const unmanaged = (row: Row) => row.unmanaged.map((slot) => (
    <Space key={slot.id} size={4} wrap className="drift-unmanaged" data-slot={slot.slot}>
      <Tag color="warning">{t('unmanagedSlot', { slot: slot.slot })}</Tag>
      {slot.syncState !== 'normal' && <Tag>{t(`credential:syncStates.${slot.syncState}`)}</Tag>}
      {mayResolve && slot.syncState === 'normal' && row.table !== 'users' && (
        <Select size="small" style={{ width: 150 }} placeholder={t('adoptFor')} options={userOptions} className="drift-adopt"
          onChange={(lockUserId: number) => void adopt.run({ id: slot.id, lockUserId })} />
      )}
      {mayResolve && ['normal', 'delete_failed'].includes(slot.syncState) && (
        <Popconfirm title={t('deleteFromLockConfirm')} onConfirm={() => void remove.run(slot.id)}>
          <Button size="small" danger>{t('deleteFromLock')}</Button>
        </Popconfirm>
      )}
    </Space>
  ));
  const missing = (row: Row) => row.missing.map((m) => (
    <Space key={`${m.subject}${m.id}`} size={4} wrap className="drift-missing">
      <Tag color="error">{t('missingRow', { slot: m.slot, name: m.name ?? '-' })}</Tag>
      {mayResolve && <Button size="small" onClick={() => void requeue.run(m)}>{t('requeue')}</Button>}
      {mayResolve && (
        <Popconfirm title={t('markLostConfirm')} onConfirm={() => void lost.run(m)}>
          <Button size="small">{t('markLost')}</Button>
        </Popconfirm>
      )}
    </Space>
  ));

  const report = data?.inventory;
  return (
    <Card size="small" title={t('driftTitle')} className="information-drift"
      extra={(
        <Space>
          <span>{report ? t('reportedAt', { time: formatTime(report.reportedAt), reason: t(`inventoryReasons.${report.reason}`) }) : t('noInventory')}</span>
          {data && report && <Tag color={data.inSync ? 'success' : 'error'}>{t(data.inSync ? 'inSync' : 'drifted')}</Tag>}
          {mayResolve && <Button size="small" loading={ask.isPending} onClick={() => void ask.run()}>{t('queryInventory')}</Button>}
        </Space>
      )}>
      <Table<Row>
        rowKey="table" size="small" pagination={false} dataSource={data?.tables ?? []} scroll={{ x: 'max-content' }}
        columns={[
          { title: t('table'), dataIndex: 'table', render: (table: Row['table']) => t(`tables.${table}`) },
          { title: t('onLock'), dataIndex: 'onLock', align: 'right', render: (count: number) => (report ? count : DASH) },
          { title: t('onPlatform'), dataIndex: 'onPlatform', align: 'right' },
          { title: t('unmanaged'), key: 'unmanaged', render: (_, row) => <Space direction="vertical" size={4}>{unmanaged(row)}</Space> },
          { title: t('missing'), key: 'missing', render: (_, row) => <Space direction="vertical" size={4}>{missing(row)}</Space> },
        ]}
      />
    </Card>
  );
}
