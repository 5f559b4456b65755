/**
 * 绑定角色: choose an account (searchable, GET /v1/account/queryAll), move roles between "available"
 * and "bound" (GET /v1/account/queryRoles) and save (POST /v1/sysUserRole/bind, which replaces the
 * account's roles in the tenant); saving no role at all asks first (the account would open no page). A refusal (SELF_ACTION for one's own account, ESCALATION) stays
 * on screen as an alert with the server's message in the current language.
 */
import { accountEndpoints, roleEndpoints, type AccountRecord } from '@iot/contract';
import { Alert, Button, Empty, Form, Modal, Space, Transfer } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { useUsername } from '../../hooks/useSession';
import { RemoteSelect } from '../../components/RemoteSelect';

const SEARCH_SIZE = 50;

/** The role-binding page. */
export default function BindingRolesPage() {
  const { t } = useTranslation('account');
  const me = useUsername();
  const [account, setAccount] = useState<AccountRecord>();
  const [targetKeys, setTargetKeys] = useState<string[]>([]);
  const [refusal, setRefusal] = useState<string>();
  const [modal, modalHolder] = Modal.useModal();
  const roles = useApiQuery(accountEndpoints.queryRoles, { accountId: account?.id ?? 0 }, { enabled: account !== undefined });

  useEffect(() => {
    setTargetKeys(roles.data?.bound.map((role) => String(role.id)) ?? []);
  }, [roles.data]);

  const choose = (next: AccountRecord | undefined) => {
    setRefusal(undefined);
    setAccount(next);
  };

  // Quiet call: a refusal stays on screen as an alert besides its toast.
  const save = useApiMutation({
    mutationFn: (body: { accountId: number; roleIds: number[] }) => call(roleEndpoints.bind, { quiet: true, body }),
    success: (_, body) => (body.roleIds.length > 0 ? t('bound') : t('unbound')),
    invalidate: [accountEndpoints.list, accountEndpoints.queryRoles],
    errorText: (error) => (error instanceof ApiError ? error.message : undefined),
    onError: (error) => setRefusal(error instanceof ApiError ? error.message : String(error)),
  });
  const run = () => {
    if (!account) return;
    setRefusal(undefined);
    void save.run({ accountId: account.id, roleIds: targetKeys.map(Number) });
  };
  // An account left without a role opens no page: say so and ask first.
  const submit = () => {
    if (!account) return;
    if (targetKeys.length > 0) return run();
    modal.confirm({
      title: t('noRoleTitle'), content: t('noRoleWarning', { username: account.username }), okText: t('noRoleOk'), cancelText: t('cancel'),
      okButtonProps: { danger: true, id: 'binding-no-role-ok' }, onOk: run,
    });
  };
  const dataSource = (roles.data?.roles ?? []).map((role) => ({ key: String(role.id), title: role.name, description: role.description }));
  return (
    <div className="page-card binding-roles">
      {modalHolder}
      <Form layout="inline" style={{ marginBottom: 16 }}>
        <Form.Item label={t('bindAccount')} htmlFor="binding-account">
          <RemoteSelect<typeof accountEndpoints.list, AccountRecord, number>
            id="binding-account"
            endpoint={accountEndpoints.list}
            query={(keyword) => ({ keyword, current: 1, size: SEARCH_SIZE })}
            records={(page) => page.records}
            option={(record) => ({ value: record.id, label: record.username })}
            style={{ width: 280 }}
            placeholder={t('bindAccountPlaceholder')}
            value={account?.id}
            onChange={(_id, record) => choose(record)}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" id="binding-save" disabled={!account || !roles.data} loading={save.isPending} onClick={submit}>{t('save')}</Button>
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
