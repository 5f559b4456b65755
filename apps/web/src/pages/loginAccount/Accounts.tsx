/**
 * 登录账号's accounts tab: the tenant's login accounts (GET /v1/account/queryAll) searchable by username; add an
 * operator, change a password, its sessions and sign-in history (a drawer: sign out one or all),
 * enable/disable (confirmed), reset two-factor (confirmed, shown while it is on) and delete (confirmed). Dangerous calls may first open the step-up dialog (api/client.ts). Server refusals
 * (ESCALATION, SELF_ACTION, LAST_ADMIN, CONFLICT) show as the client's toast in the current language.
 */
import { accountEndpoints, type AccountRecord, twoFactorEndpoints } from '@iot/contract';
import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { ServerTable } from '../../components/ServerTable';
import { AccountModal, type AccountModalMode } from './AccountModal';
import { accountColumns } from './columns';

const SessionsDrawer = lazy(() => import('../../sessions/SessionsDrawer'));

/** Trimmed keyword, or none. */
function toQuery(values: Record<string, unknown>) {
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : '';
  return { keyword: keyword || undefined };
}

/** The accounts tab of 登录账号. */
export function Accounts() {
  const { t } = useTranslation(['account', 'twoFactor', 'sessions']);
  const [sessionsOf, setSessionsOf] = useState<AccountRecord>();
  const [modal, setModal] = useState<{ mode: AccountModalMode; open: boolean }>({ mode: { kind: 'add' }, open: false });
  const invalidate = [accountEndpoints.list, accountEndpoints.queryRoles];
  const enable = useApiMutation({
    mutationFn: (body: { id: number; enabled: boolean }) => call(accountEndpoints.enable, { body }), success: t('saved'), invalidate,
  });
  const remove = useApiMutation({ mutationFn: (id: number) => call(accountEndpoints.delete, { body: { id } }), success: t('deleted'), invalidate });
  const resetTwoFactor = useApiMutation({
    mutationFn: (accountId: number) => call(twoFactorEndpoints.reset, { body: { accountId } }), success: t('twoFactor:resetDone'), invalidate,
  });

  const setEnabled = enable.run;
  const removeRun = remove.run;
  const resetRun = resetTwoFactor.run;
  const columns = useMemo(() => accountColumns(t, {
    setEnabled: (account: AccountRecord, enabled: boolean) => setEnabled({ id: account.id, enabled }),
    changePassword: (account: AccountRecord) => setModal({ mode: { kind: 'password', account }, open: true }),
    remove: (account: AccountRecord) => removeRun(account.id),
    resetTwoFactor: (account: AccountRecord) => resetRun(account.id),
    showSessions: setSessionsOf,
  }), [t, setEnabled, removeRun, resetRun]);

  const filters = (
    <Form.Item htmlFor="account-keyword" name="keyword" label={t('keyword')}>
      <Input id="account-keyword" allowClear placeholder={t('keywordPlaceholder')} style={{ width: 220 }} />
    </Form.Item>
  );
  const toolbar = (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setModal({ mode: { kind: 'add' }, open: true })}>{t('add')}</Button>
  );
  return (
    <>
      <ServerTable<AccountRecord>
        endpoint={accountEndpoints.list}
        columns={columns}
        rowKey="id"
        filters={filters}
        toQuery={toQuery}
        toolbar={toolbar}
      />
      <AccountModal {...modal} onClose={() => setModal((current) => ({ ...current, open: false }))} />
      {sessionsOf && (
        <Suspense fallback={null}>
          <SessionsDrawer open account={{ id: sessionsOf.id, username: sessionsOf.username }} onClose={() => setSessionsOf(undefined)} />
        </Suspense>
      )}
    </>
  );
}
