/**
 * The person's live sessions (issue #28 "Sessions"): started, last used, address, browser (bowser's
 * summary, the raw user agent in a tooltip), "this session" (in the action column); sign out one (not this one: the header's
 * sign-out does that) or all others, each after a confirmation.
 */
import { type SessionRecord, sessionEndpoints } from '@iot/contract';
import { Button, Popconfirm, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiMutation } from '../api/useApiMutation';
import { useApiQuery } from '../api/useApiQuery';
import { formatTime } from '../app/timeZone';
import { browserSummary } from './browser';

/** Browser summary with the raw user agent on hover. */
export function BrowserCell({ userAgent }: { userAgent: string | null }) {
  const { t } = useTranslation('sessions');
  const summary = browserSummary(userAgent);
  return summary ? <Tooltip title={userAgent}><span>{summary}</span></Tooltip> : <Typography.Text type="secondary">{t('unknown')}</Typography.Text>;
}

/** The live-sessions tab. */
export function LiveSessions() {
  const { t } = useTranslation('sessions');
  const sessions = useApiQuery(sessionEndpoints.list, undefined, { refetchInterval: 30_000 });
  const revoke = useApiMutation({
    mutationFn: (id: number) => call(sessionEndpoints.revoke, { body: { id } }), success: t('signedOut'), invalidate: [sessionEndpoints.list],
  });
  const revokeOthers = useApiMutation({
    mutationFn: () => call(sessionEndpoints.revokeOthers), success: (result) => t('signedOutOthers', { count: result.revoked }), invalidate: [sessionEndpoints.list],
  });
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
        <Typography.Text type="secondary">{t('liveHint')}</Typography.Text>
        <Popconfirm title={t('signOutOthersConfirm')} onConfirm={() => revokeOthers.run()} disabled={others === 0}>
          <Button danger disabled={others === 0}>{t('signOutOthers')}</Button>
        </Popconfirm>
      </Space>
      <Table<SessionRecord> className="live-sessions" rowKey="id" size="middle" columns={columns} dataSource={sessions.data ?? []}
        loading={sessions.isLoading} pagination={false} scroll={{ x: 700 }} />
    </Space>
  );
}
