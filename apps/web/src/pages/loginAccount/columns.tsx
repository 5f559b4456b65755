/**
 * Columns of the login-account list (登录账号), with the row actions: change password, sessions and
 * sign-in history, reset two-factor (only while it is on), delete, each
 * confirmed where it cannot be undone.
 */
import { ACCOUNT_TYPE_ADMIN, type AccountRecord } from '@iot/contract';
import { Button, Popconfirm, Space, Switch, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { DASH, formatTime } from '../../components/logColumns';

export interface AccountActions {
  setEnabled(account: AccountRecord, enabled: boolean): Promise<unknown>;
  changePassword(account: AccountRecord): void;
  remove(account: AccountRecord): Promise<unknown>;
  resetTwoFactor(account: AccountRecord): Promise<unknown>;
  showSessions(account: AccountRecord): void;
}

/** Tags of named items, or a dash. */
const names = (items: { id: number; name: string }[], color?: string) =>
  items.length === 0 ? DASH : <Space size={[0, 4]} wrap>{items.map((item) => <Tag key={item.id} color={color}>{item.name}</Tag>)}</Space>;

/** Account columns in the `account` namespace's language. */
export function accountColumns(t: TFunction, actions: AccountActions): TableColumnsType<AccountRecord> {
  return [
    { title: t('username'), dataIndex: 'username', fixed: 'left', sorter: true },
    {
      title: t('type'), dataIndex: 'type',
      render: (type: number) => (type === ACCOUNT_TYPE_ADMIN ? <Tag color="gold">{t('admin')}</Tag> : <Tag color="blue">{t('operator')}</Tag>),
    },
    {
      title: t('enabled'), dataIndex: 'enabled',
      render: (enabled: boolean, account) => (
        <Popconfirm
          title={t(enabled ? 'disableConfirm' : 'enableConfirm', { username: account.username })}
          okText={t('ok')}
          cancelText={t('cancel')}
          onConfirm={() => actions.setEnabled(account, !enabled)}
        >
          <Switch checked={enabled} size="small" aria-label={t('enabled')} />
        </Popconfirm>
      ),
    },
    { title: t('tenants'), dataIndex: 'tenants', render: (tenants: AccountRecord['tenants']) => names(tenants) },
    { title: t('roles'), dataIndex: 'roles', render: (roles: AccountRecord['roles']) => names(roles, 'geekblue') },
    { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime, sorter: true },
    {
      title: t('actions'), key: 'actions', fixed: 'right',
      render: (_, account) => (
        <Space>
          <Button type="link" size="small" onClick={() => actions.changePassword(account)}>{t('changePassword')}</Button>
          <Button type="link" size="small" className="account-sessions" onClick={() => actions.showSessions(account)}>{t('sessions:sessions')}</Button>
          {account.twoFactorEnabled && (
            <Popconfirm
              title={t('twoFactor:resetConfirm', { name: account.username })}
              okText={t('ok')}
              cancelText={t('cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => actions.resetTwoFactor(account)}
            >
              <Button type="link" size="small" className="account-reset-two-factor">{t('twoFactor:reset')}</Button>
            </Popconfirm>
          )}
          <Popconfirm
            title={t('deleteConfirm', { username: account.username })}
            okText={t('ok')}
            cancelText={t('cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => actions.remove(account)}
          >
            <Button type="link" size="small" danger>{t('delete')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
