/** Columns of 登录账号's API-key list: name and prefix, scope, networks, state, expiry, last use, creator, actions. */
import { ACTION_AUTHORITIES, type ApiKeyRecord, flattenMenu, type Language } from '@iot/contract';
import { Button, Popconfirm, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { DASH, formatTime } from '../../components/logColumns';

export interface ApiKeyActions {
  revoke(record: ApiKeyRecord): Promise<unknown>;
  rotate(record: ApiKeyRecord): void;
}

const TITLES = new Map<string, { 'zh-CN': string; 'en-US': string }>([
  ...flattenMenu().flatMap((entry) => (entry.key ? [[entry.key, entry.title] as const] : [])),
  ...ACTION_AUTHORITIES.map((action) => [action.key, action.title] as const),
]);

/** An authority key's title in `language` (the key itself when the menu does not name it). */
export const authorityTitle = (key: string, language: Language) => TITLES.get(key)?.[language] ?? key;

const STATE_COLORS = { active: 'green', expired: 'default', revoked: 'red' } as const;

/** API-key columns in the `apiKey` namespace's language. */
export function apiKeyColumns(t: TFunction, language: Language, actions: ApiKeyActions): TableColumnsType<ApiKeyRecord> {
  return [
    {
      title: t('name'), dataIndex: 'name', fixed: 'left',
      render: (name: string, record) => <Space direction="vertical" size={0}><span>{name}</span><Typography.Text type="secondary" code>{`${record.prefix}_…`}</Typography.Text></Space>,
    },
    {
      title: t('authorities'), dataIndex: 'authorities',
      render: (keys: string[]) => <Space size={[0, 4]} wrap>{keys.map((key) => <Tag key={key} color="geekblue">{authorityTitle(key, language)}</Tag>)}</Space>,
    },
    { title: t('allowedNetworks'), dataIndex: 'allowedNetworks', render: (networks: string[]) => (networks.length === 0 ? t('anyNetwork') : networks.join(', ')) },
    {
      title: t('state'), dataIndex: 'state',
      render: (state: ApiKeyRecord['state'], record) => (
        <Space size={0} direction="vertical">
          <Tag color={STATE_COLORS[state]}>{t(`states.${state}`)}</Tag>
          {record.previousValidUntil && <Tooltip title={t('graceHint')}><Typography.Text type="secondary">{t('graceUntil', { time: formatTime(record.previousValidUntil) })}</Typography.Text></Tooltip>}
        </Space>
      ),
    },
    { title: t('expiresAt'), dataIndex: 'expiresAt', render: formatTime },
    { title: t('lastUsedAt'), dataIndex: 'lastUsedAt', render: (value: string | null) => (value ? formatTime(value) : DASH) },
    { title: t('createdBy'), dataIndex: 'createdBy' },
    {
      title: t('actions'), key: 'actions', fixed: 'right',
      render: (_, record) => record.state !== 'active' ? DASH : (
        <Space>
          <Button type="link" size="small" onClick={() => actions.rotate(record)}>{t('rotate')}</Button>
          <Popconfirm title={t('revokeConfirm', { name: record.name })} okText={t('ok')} cancelText={t('cancel')} okButtonProps={{ danger: true }} onConfirm={() => actions.revoke(record)}>
            <Button type="link" size="small" danger>{t('revoke')}</Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
