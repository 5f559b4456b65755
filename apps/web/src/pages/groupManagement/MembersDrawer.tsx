/**
 * A group's member locks (GET /iot/v1/lockDevice/list?groupId=, paged here), each linking to its
 * 设备信息; group editors add locks by a pasted IMEI list and remove members (one, or the selected ones).
 */
import { type LockGroupRecord, type LockRecord, lockEndpoints, lockGroupEndpoints } from '@iot/contract';
import { Badge, Button, Drawer, Popconfirm, Space, Table } from 'antd';
import { type Key, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { LockLink } from '../../components/LockLink';
import { AddToGroupModal } from '../../components/AddToGroupModal';

const SIZE = 10;

/** Open while `group` is set. */
export function MembersDrawer({ group, mayEdit, onClose }: { group: LockGroupRecord | undefined; mayEdit: boolean; onClose(): void }) {
  const { t } = useTranslation('group');
  const [current, setCurrent] = useState(1);
  const [selected, setSelected] = useState<Key[]>([]);
  const [adding, setAdding] = useState(false);
  const groupId = group?.id ?? 0;
  const { data } = useApiQuery(lockEndpoints.list, { groupId, current, size: SIZE, state: 'all' }, { enabled: group !== undefined, keepPrevious: true, refetchInterval: 5000 });
  const remove = useApiMutation({
    mutationFn: (lockIds: number[]) => call(lockGroupEndpoints.removeMembers, { body: { groupId, lockIds } }),
    success: (done: { removed: number }) => t('removed', { count: done.removed }), invalidate: [lockEndpoints.list, lockGroupEndpoints.list],
    onSuccess: () => setSelected([]),
  });
  const close = () => { setCurrent(1); setSelected([]); onClose(); };
  const confirmRemove = (ids: number[], label: string) => (
    <Popconfirm title={t('removeConfirm', { count: ids.length })} okText={t('ok')} cancelText={t('cancel')} onConfirm={() => remove.run(ids)}>
      <Button type="link" size="small" danger>{label}</Button>
    </Popconfirm>
  );
  return (
    <Drawer open={group !== undefined} onClose={close} size="large" destroyOnHidden title={t('membersTitle', { name: group?.name ?? '' })}
      extra={<Space>
        <Link to={`/lockInfo?groupId=${groupId}`}>{t('openInLockInfo')}</Link>
        {mayEdit && <Button type="primary" id="group-add-imeis" onClick={() => setAdding(true)}>{t('addByImeis')}</Button>}
      </Space>}>
      {mayEdit && selected.length > 0 && confirmRemove(selected.map(Number), t('removeSelected', { count: selected.length }))}
      <Table<LockRecord>
        rowKey="id" size="small" className="group-members" dataSource={data?.records ?? []} scroll={{ x: 'max-content' }}
        rowSelection={mayEdit ? { selectedRowKeys: selected, onChange: setSelected } : undefined}
        pagination={{ current, pageSize: SIZE, total: data?.total ?? 0, onChange: setCurrent, showTotal: (total) => t('common:total', { total }) }}
        columns={[
          { title: 'IMEI', dataIndex: 'imei', render: (imei: string) => <LockLink imei={imei} /> },
          { title: t('lockName'), dataIndex: 'name' },
          { title: t('room'), dataIndex: 'room' },
          { title: t('status'), dataIndex: 'online', render: (online: boolean) => <Badge status={online ? 'success' : 'default'} text={online ? t('online') : t('offline')} /> },
          ...(mayEdit ? [{ title: t('actions'), key: 'actions', render: (_: unknown, lock: LockRecord) => confirmRemove([lock.id], t('remove')) }] : []),
        ]}
      />
      <AddToGroupModal open={adding} groupId={groupId} onClose={() => setAdding(false)} />
    </Drawer>
  );
}
