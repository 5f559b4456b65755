/**
 * The person's sign-in history, newest first, paged: time, address, browser, method,
 * result; with `account` (登录账号, account managers) that account's.
 */
import { type SignInRecord, signInHistoryEndpoints } from '@iot/contract';
import { Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../api/useApiQuery';
import { formatTime } from '../lib/timeZone';
import { type AccountRef, BrowserCell } from './LiveSessions';

const PAGE_SIZE = 10;

/** The sign-in history tab: the caller's, or with `account` that account's. */
export function SignInHistory({ account }: { account?: AccountRef }) {
  const { t } = useTranslation('sessions');
  const [page, setPage] = useState({ current: 1, size: PAGE_SIZE });
  const own = useApiQuery(signInHistoryEndpoints.list, page, { keepPrevious: true, enabled: !account });
  const theirs = useApiQuery(signInHistoryEndpoints.account, { ...page, accountId: account?.id ?? 0 }, { keepPrevious: true, enabled: Boolean(account) });
  const history = account ? theirs : own;
  const columns: TableColumnsType<SignInRecord> = [
    { title: t('time'), dataIndex: 'createdAt', width: 165, render: (value: string) => formatTime(value) },
    { title: t('address'), dataIndex: 'clientIp', width: 130 },
    { title: t('browser'), dataIndex: 'userAgent', ellipsis: true, render: (value: string | null) => <BrowserCell userAgent={value} /> },
    {
      title: t('method'), dataIndex: 'method', width: 170,
      render: (value: SignInRecord['method'], row) => (row.apiKeyName ? `${t(`methods.${value}`)} · ${row.apiKeyName}` : t(`methods.${value}`)),
    },
    {
      title: t('result'), dataIndex: 'result', width: 200,
      render: (value: SignInRecord['result']) => (
        <Tag color={value === 'success' ? 'green' : value === 'twoFactorPending' ? 'blue' : 'red'}>{t(`results.${value}`)}</Tag>
      ),
    },
  ];
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('historyHint')}</Typography.Text>
      <Table<SignInRecord>
        className="sign-in-history" rowKey="id" size="middle" columns={columns} dataSource={history.data?.records ?? []} loading={history.isLoading}
        scroll={{ x: 760 }}
        pagination={{
          current: page.current, pageSize: page.size, total: history.data?.total ?? 0, showSizeChanger: true,
          onChange: (current, size) => setPage({ current: size === page.size ? current : 1, size }),
        }}
      />
    </Space>
  );
}
