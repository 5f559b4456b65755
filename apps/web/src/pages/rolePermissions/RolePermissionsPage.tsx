/**
 * 角色权限: the tenant's roles (GET /v1/sysRole/queryAll) searchable by name or description; add and
 * edit in a drawer with the menu tree (RoleDrawer), delete with a confirmation. Refusals (ESCALATION,
 * CONFLICT for a duplicate name) show as the client's toast.
 */
import { flattenMenu, listText, roleEndpoints, type RoleRecord } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Space, Tooltip, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useLanguage } from '../../hooks/useSession';
import { DASH, formatTime } from '../../components/logColumns';
import { ServerTable } from '../../components/ServerTable';
import { RoleDrawer, type RoleDrawerTarget } from './RoleDrawer';

const MENU_ENTRIES = flattenMenu();

/** Trimmed keyword, or none. */
function toQuery(values: Record<string, unknown>) {
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : '';
  return { keyword: keyword || undefined };
}

/** The role page. */
export default function RolePermissionsPage() {
  const { t } = useTranslation('role');
  const language = useLanguage();
  const [drawer, setDrawer] = useState<{ target: RoleDrawerTarget; open: boolean }>({ target: 'new', open: false });
  const { run: remove } = useApiMutation({
    mutationFn: (role: RoleRecord) => call(roleEndpoints.delete, { body: { id: role.id } }), success: t('deleted'), invalidate: [roleEndpoints.list],
  });

  const columns = useMemo<TableColumnsType<RoleRecord>>(() => {
    /** Menu titles of a role's keys, in menu order. */
    const titles = (keys: readonly string[]) => MENU_ENTRIES.filter((entry) => entry.key && keys.includes(entry.key)).map((entry) => entry.title[language]);
    return [
      { title: t('name'), dataIndex: 'name', fixed: 'left', sorter: true },
      { title: t('description'), dataIndex: 'description', render: (text: string) => text || DASH },
      {
        title: t('authorities'), dataIndex: 'authorities', align: 'right',
        render: (keys: RoleRecord['authorities']) => <Tooltip title={listText(titles(keys), language) || undefined}><span>{keys.length}</span></Tooltip>,
      },
      { title: t('accounts'), dataIndex: 'accountCount', align: 'right', sorter: true },
      { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime, sorter: true },
      {
        title: t('actions'), key: 'actions', fixed: 'right',
        render: (_, role) => (
          <Space>
            <Button type="link" size="small" onClick={() => setDrawer({ target: role, open: true })}>{t('edit')}</Button>
            <Popconfirm
              title={t('deleteConfirm', { name: role.name })}
              description={role.accountCount > 0 ? t('deleteBoundHint', { count: role.accountCount }) : undefined}
              okText={t('ok')}
              cancelText={t('cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => remove(role)}
            >
              <Button type="link" size="small" danger>{t('delete')}</Button>
            </Popconfirm>
          </Space>
        ),
      },
    ];
  }, [t, remove, language]);

  const filters = (
    <Form.Item htmlFor="role-keyword" name="keyword" label={t('keyword')}>
      <Input id="role-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 220 }} />
    </Form.Item>
  );
  return (
    <>
      <ServerTable<RoleRecord>
        endpoint={roleEndpoints.list}
        columns={columns}
        rowKey="id"
        filters={filters}
        toQuery={toQuery}
        toolbar={<Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ target: 'new', open: true })}>{t('add')}</Button>}
      />
      <RoleDrawer {...drawer} onClose={() => setDrawer((current) => ({ ...current, open: false }))} />
    </>
  );
}
