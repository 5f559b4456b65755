/**
 * 分组管理: the data centre's lock groups (GET /iot/v1/lockGroup/list) with their member
 * counts; a group's members in a drawer (each linking to 设备信息; the group's list in 门锁信息).
 * Holders of LOCK_GROUP_EDIT create, rename and delete groups (confirmed; the locks stay), add locks
 * by a pasted IMEI list and remove members; 门锁信息 adds its selected rows or its current filter.
 */
import { type LockGroupRecord, lockGroupEndpoints } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Space, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useAllowed } from '../../hooks/useSession';
import { formatTime } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { GroupModal } from './GroupModal';
import { MembersDrawer } from './MembersDrawer';

function toQuery(values: Record<string, unknown>) {
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : '';
  return { keyword: keyword || undefined };
}

/** The group management page. */
export default function GroupManagementPage() {
  const { t } = useTranslation('group');
  const mayEdit = useAllowed('LOCK_GROUP_EDIT');
  const [modal, setModal] = useState<{ open: boolean; editing?: LockGroupRecord }>({ open: false });
  const [shown, setShown] = useState<LockGroupRecord>();
  const remove = useApiMutation({
    mutationFn: (id: number) => call(lockGroupEndpoints.delete, { body: { id } }), success: t('deleted'),
    invalidate: [lockGroupEndpoints.list, lockGroupEndpoints.options],
  });
  const removeRun = remove.run;
  const columns = useMemo<TableColumnsType<LockGroupRecord>>(() => [
    { title: t('name'), dataIndex: 'name', render: (name: string, group) => <Button type="link" size="small" className="group-name" onClick={() => setShown(group)}>{name}</Button> },
    { title: t('description'), dataIndex: 'description' },
    { title: t('memberCount'), dataIndex: 'memberCount', align: 'right' },
    { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime },
    {
      title: t('actions'), key: 'actions', fixed: 'right',
      render: (_: unknown, group) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setShown(group)}>{t('members')}</Button>
          {mayEdit && <Button type="link" size="small" onClick={() => setModal({ open: true, editing: group })}>{t('edit')}</Button>}
          {mayEdit && (
            <Popconfirm title={t('deleteConfirm', { name: group.name, count: group.memberCount })} okText={t('ok')} cancelText={t('cancel')}
              okButtonProps={{ danger: true }} onConfirm={() => removeRun(group.id)}>
              <Button type="link" size="small" danger>{t('delete')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ], [t, mayEdit, removeRun]);
  const filters = (
    <Form.Item htmlFor="group-keyword" name="keyword" label={t('keyword')}>
      <Input id="group-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 220 }} />
    </Form.Item>
  );
  const toolbar = mayEdit
    ? <Button type="primary" id="group-create" icon={<PlusOutlined />} onClick={() => setModal({ open: true })}>{t('create')}</Button>
    : undefined;
  return (
    <>
      <ServerTable<LockGroupRecord> endpoint={lockGroupEndpoints.list} columns={columns} rowKey="id" filters={filters} toQuery={toQuery} toolbar={toolbar} />
      <GroupModal {...modal} onClose={() => setModal((current) => ({ ...current, open: false }))} />
      <MembersDrawer group={shown} mayEdit={mayEdit} onClose={() => setShown(undefined)} />
    </>
  );
}
