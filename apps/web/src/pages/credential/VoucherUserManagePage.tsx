/**
 * 用户管理: lock users (GET /iot/v1/operateUser/list) per lock or for all locks, sync states live; add,
 * modify, freeze / unfreeze and delete (confirmed), retry or discard a failed operation; offboard a
 * person on every lock with live per-lock progress; who can open a lock at a given time.
 */
import { credentialEndpoints, LOCK_USER_STATUSES, type LockUserRecord, USER_TYPE_LABELS, USER_TYPES } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Badge, Button, Form, Input, Popconfirm, Select, Space, type TableColumnsType, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useLanguage } from '../../hooks/useSession';
import { DASH } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { lockColumn, validityAndSync } from '../../components/credential/columns';
import { credentialFormValues, LOCK_FIELD, LockCapacity, LockFilterItem, usePickedLock } from '../../components/credential/LockBar';
import { OffboardModal } from './OffboardModal';
import { listQuery, RowActions, SYNC_REFETCH_MS, SyncStateFilter, useOperation } from '../../components/credential/shared';
import { UserModal } from './UserModal';
import { WhoCanOpenDrawer } from '../../components/credential/WhoCanOpenDrawer';

const LISTS = [credentialEndpoints.userList, credentialEndpoints.capacity];
type Dialog = { kind: 'none' } | { kind: 'user'; user?: LockUserRecord } | { kind: 'offboard' } | { kind: 'who' };

/** The lock-user page. */
export default function VoucherUserManagePage() {
  const { t } = useTranslation('credential');
  const language = useLanguage();
  const lockId = usePickedLock();
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [lastUser, setLastUser] = useState<LockUserRecord>();
  const operate = useOperation(...LISTS);
  const close = () => setDialog({ kind: 'none' });

  const columns = useMemo<TableColumnsType<LockUserRecord>>(() => {
    const act = (row: LockUserRecord, action: 'freeze' | 'unfreeze' | 'delete') =>
      operate(() => call(credentialEndpoints.userOperation, { body: { action, id: row.id } }), t('saved'));
    const confirm = { okText: t('ok'), cancelText: t('cancel') };
    return [
      lockColumn<LockUserRecord>(t),
      { title: t('userSlot'), dataIndex: 'userSlot', align: 'right', sorter: true },
      { title: t('name'), dataIndex: 'name', sorter: true },
      { title: t('phone'), dataIndex: 'phone', render: (v: string | null) => v ?? DASH },
      { title: t('status'), dataIndex: 'status', render: (s: LockUserRecord['status']) => <Badge status={s === 'frozen' ? 'warning' : 'success'} text={t(`userStatus.${s}`)} /> },
      { title: t('userType'), dataIndex: 'userType', render: (v: LockUserRecord['userType'], r) => <Tag className="user-type">{USER_TYPE_LABELS[v][language]}{r.credentialRule === 'dual' ? ` · ${t('dual')}` : ''}</Tag> },
      ...validityAndSync<LockUserRecord>(t),
      { title: t('credentialCount'), dataIndex: 'credentials', align: 'right' },
      {
        title: t('actions'), key: 'actions', fixed: 'right',
        render: (_: unknown, row) => (
          <RowActions row={row} routes={credentialEndpoints.user} lists={LISTS} onDelete={(r) => act(r, 'delete')}>
            {row.syncState === 'normal' && (
              <>
                <Button type="link" size="small" onClick={() => { setLastUser(row); setDialog({ kind: 'user', user: row }); }}>{t('modify')}</Button>
                <Popconfirm title={t(row.status === 'frozen' ? 'unfreezeConfirm' : 'freezeConfirm')} {...confirm} onConfirm={() => act(row, row.status === 'frozen' ? 'unfreeze' : 'freeze')}>
                  <Button type="link" size="small">{t(row.status === 'frozen' ? 'unfreeze' : 'freeze')}</Button>
                </Popconfirm>
              </>
            )}
          </RowActions>
        ),
      },
    ];
  }, [t, operate, language]);

  const filters = (
    <>
      <LockFilterItem />
      <Form.Item name="status" label={t('status')}>
        <Select style={{ width: 110 }} options={[{ value: 'all', label: t('all') }, ...LOCK_USER_STATUSES.map((s) => ({ value: s, label: t(`userStatus.${s}`) }))]} />
      </Form.Item>
      <Form.Item name="userType" label={t('userType')}>
        <Select style={{ width: 170 }} options={[{ value: 'all', label: t('all') }, ...USER_TYPES.map((u) => ({ value: u, label: USER_TYPE_LABELS[u][language] }))]} />
      </Form.Item>
      <SyncStateFilter />
      <Form.Item name="keyword" label={t('keyword')}>
        <Input allowClear placeholder={t('userKeywordPlaceholder')} style={{ width: 180 }} />
      </Form.Item>
    </>
  );
  const toolbar = (
    <Space className="credential-lock-bar">
      <Button onClick={() => setDialog({ kind: 'who' })}>{t('whoCanOpen')}</Button>
      <Button danger onClick={() => setDialog({ kind: 'offboard' })}>{t('offboard')}</Button>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => { setLastUser(undefined); setDialog({ kind: 'user' }); }}>{t('addUser')}</Button>
    </Space>
  );
  return (
    <>
      <ServerTable<LockUserRecord>
        endpoint={credentialEndpoints.userList}
        columns={columns}
        rowKey="id"
        filters={filters}
        initialFilters={{ status: 'all', userType: 'all', syncState: 'all' }}
        toQuery={listQuery} fromQuery={credentialFormValues} instant={LOCK_FIELD}
        header={<LockCapacity lockId={lockId} tables={['users']} />} toolbar={toolbar}
        refetchInterval={SYNC_REFETCH_MS}
      />
      <UserModal open={dialog.kind === 'user'} user={lastUser} lockId={lockId} onClose={close} />
      <OffboardModal open={dialog.kind === 'offboard'} onClose={close} />
      <WhoCanOpenDrawer open={dialog.kind === 'who'} lockId={lockId} onClose={close} />
    </>
  );
}
