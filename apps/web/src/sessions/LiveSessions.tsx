/**
 * The person's live sessions: started, last used, address, browser (bowser's
 * summary, the raw user agent in a tooltip), "this session" (in the action column); sign out one (not this one: the header's
 * sign-out does that) or all others, each after a confirmation. With `account` (登录账号, account
 * managers): that account's sessions, sign out one or all.
 */
import { type SessionRecord, sessionEndpoints } from '@iot/contract';
import { Button, Popconfirm, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';
import { useApiQuery } from '../api/useApiQuery';
import { formatTime } from '../lib/timeZone';
import { browserSummary } from './browser';

/** Browser summary with the raw user agent on hover. */
export function BrowserCell({ userAgent }: { userAgent: string | null }) {
  const { t } = useTranslation('sessions');
  const summary = browserSummary(userAgent);
  return summary ? <Tooltip title={userAgent}><span>{summary}</span></Tooltip> : <Typography.Text type="secondary">{t('unknown')}</Typography.Text>;
}

/** Another account's sessions, for an account manager (登录账号); none: the caller's own. */
export interface AccountRef {
  id: number;
  username: string;
}

/** The caller's sessions, or with `account` that account's (sign out one, or all). */
function useSessions(account: AccountRef | undefined) {
  const { t } = useTranslation('sessions');
  const own = useApiQuery(sessionEndpoints.list, undefined, { refetchInterval: 30_000, enabled: !account });
  const theirs = useApiQuery(sessionEndpoints.account.list, { accountId: account?.id ?? 0 }, { refetchInterval: 30_000, enabled: Boolean(account) });
  const invalidate = [sessionEndpoints.list, sessionEndpoints.account.list];
  const revoke = useApiMutation({
    mutationFn: (id: number) => (account ? call(sessionEndpoints.account.revoke, { body: { accountId: account.id, id } }) : call(sessionEndpoints.revoke, { body: { id } })),
    success: t('signedOut'), invalidate,
  });
  const revokeMany = useApiMutation({
    mutationFn: () => (account ? call(sessionEndpoints.account.revokeAll, { body: { accountId: account.id } }) : call(sessionEndpoints.revokeOthers)),
    success: (result) => t(account ? 'signedOutAll' : 'signedOutOthers', { count: result.revoked }), invalidate,
  });
  return { sessions: account ? theirs : own, revoke, revokeMany };
}

/** The live-sessions tab: the caller's, or with `account` that account's. */
export function LiveSessions({ account }: { account?: AccountRef }) {
  const { t } = useTranslation('sessions');
  const { sessions, revoke, revokeMany } = useSessions(account);
  const others = (sessions.data ?? []).filter((session) => !session.current).length;
  const columns: TableColumnsType<SessionRecord> = [
    { title: t('startedAt'), dataIndex: 'startedAt', width: 165, render: (value: string) => formatTime(value) },
    { title: t('lastUsedAt'), dataIndex: 'lastUsedAt', width: 165, render: (value: string) => formatTime(value) },
    { title: t('address'), dataIndex: 'clientIp', width: 130, render: (value: string | null) => value ?? '—' },
    { title: t('browser'), dataIndex: 'userAgent', ellipsis: true, render: (value: string | null) => <BrowserCell userAgent={value} /> },
    {
      title: t('action'), key: 'action', width: 120, fixed: 'right',
      render: (_, row) => row.current ? <Tag color="green">{t('thisSession')}</Tag> : (
        <Popconfirm title={t('signOutConfirm')} onConfirm={() => revoke.run(row.id)}>
          <Button type="link" size="small" danger>{t('signOut')}</Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Text type="secondary">{account ? t('accountLiveHint', { username: account.username }) : t('liveHint')}</Typography.Text>
        <Popconfirm title={account ? t('signOutAllConfirm', { username: account.username }) : t('signOutOthersConfirm')} onConfirm={() => revokeMany.run()} disabled={others === 0}>
          <Button danger disabled={others === 0}>{account ? t('signOutAll') : t('signOutOthers')}</Button>
        </Popconfirm>
      </Space>
      <Table<SessionRecord> className="live-sessions" rowKey="id" size="middle" columns={columns} dataSource={sessions.data ?? []}
        loading={sessions.isLoading} pagination={false} scroll={{ x: 700 }} />
    </Space>
  );
}
