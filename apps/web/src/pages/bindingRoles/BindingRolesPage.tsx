/**
 * 绑定角色: choose an account (searchable, GET /v1/account/queryAll), move roles between "available"
 * and "bound" (GET /v1/account/queryRoles) and save (POST /v1/sysUserRole/bind, which replaces the
 * account's roles in the tenant). A refusal (SELF_ACTION for one's own account, ESCALATION) stays
 * on screen as an alert with the server's message in the current language.
 */
import { accountEndpoints, roleEndpoints, type AccountRecord } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Form, Select, Space, Transfer } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { apiQueryKey } from '../../api/useApiQuery';
import { useInvalidate } from '../../api/useInvalidate';
import { useUsername } from '../../app/useSession';

const SEARCH_SIZE = 50;

/** The role-binding page. */
export default function BindingRolesPage() {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const me = useUsername();
  const [keyword, setKeyword] = useState('');
  const [account, setAccount] = useState<AccountRecord>();
  const [targetKeys, setTargetKeys] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<string>();
  const [saving, setSaving] = useState(false);
  const refresh = useInvalidate(accountEndpoints.list, accountEndpoints.queryRoles);

  const listQuery = { keyword: keyword.trim() || undefined, current: 1, size: SEARCH_SIZE };
  const accounts = useQuery({
    queryKey: apiQueryKey(accountEndpoints.list, listQuery),
    queryFn: ({ signal }) => call(accountEndpoints.list, { query: listQuery, signal, background: true }),
  });
  const rolesQuery = { accountId: account?.id ?? 0 };
  const roles = useQuery({
    queryKey: apiQueryKey(accountEndpoints.queryRoles, rolesQuery),
    queryFn: ({ signal }) => call(accountEndpoints.queryRoles, { query: rolesQuery, signal }),
    enabled: account !== undefined,
  });

  useEffect(() => {
    setTargetKeys(roles.data?.bound.map((role) => String(role.id)) ?? []);
  }, [roles.data]);

  const choose = (id: number | undefined) => {
    setRefusal(undefined);
    setAccount(accounts.data?.records.find((record) => record.id === id));
  };

  const save = async () => {
    if (!account) return;
    setSaving(true);
    setRefusal(undefined);
    try {
      await call(roleEndpoints.bind, { quiet: true, body: { accountId: account.id, roleIds: targetKeys.map(Number) } });
      message.success(t('bound'));
    } catch (error) {
      const text = error instanceof ApiError ? error.message : String(error);
      setRefusal(text);
      message.error(text);
    } finally {
      setSaving(false);
      await refresh();
    }
  };

  const options = [...(accounts.data?.records ?? [])];
  if (account && !options.some((record) => record.id === account.id)) options.unshift(account);
  const dataSource = (roles.data?.roles ?? []).map((role) => ({ key: String(role.id), title: role.name, description: role.description }));
  return (
    <div className="page-card binding-roles">
      <Form layout="inline" style={{ marginBottom: 16 }}>
        <Form.Item label={t('bindAccount')}>
          <Select
            id="binding-account"
            showSearch={{ filterOption: false, onSearch: setKeyword }}
            allowClear
            style={{ width: 280 }}
            placeholder={t('bindAccountPlaceholder')}
            value={account?.id}
            onChange={choose}
            onClear={() => setKeyword('')}
            loading={accounts.isFetching}
            options={options.map((record) => ({ value: record.id, label: record.username }))}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" disabled={!account || !roles.data} loading={saving} onClick={() => void save()}>{t('save')}</Button>
        </Form.Item>
      </Form>
      <Space vertical style={{ width: '100%' }}>
        {account && account.username === me && <Alert type="info" showIcon title={t('selfHint')} />}
        {refusal && <Alert type="error" showIcon title={t('bindRefused')} description={refusal} closable={{ onClose: () => setRefusal(undefined) }} />}
        {!account && <Empty description={t('chooseAccount')} />}
        {account && roles.data && (
          <Transfer
            dataSource={dataSource}
            targetKeys={targetKeys}
            onChange={(keys) => setTargetKeys(keys.map(String))}
            render={(item) => item.title}
            titles={[t('availableRoles'), t('boundRoles')]}
            showSearch
            locale={{ searchPlaceholder: t('searchRoles'), notFoundContent: [t('noRoles'), t('noneBound')] }}
            styles={{ section: { width: 320, height: 360 } }}
          />
        )}
      </Space>
    </div>
  );
}
