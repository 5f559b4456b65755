/** Columns of the customer-code table: identity, key hints, endpoint, events, health and actions. */
import { type CustomerCodeRecord, type Language, listText } from '@iot/contract';
import { Button, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { DASH, formatTime } from '../../components/logColumns';

export interface CodeActions {
  edit(record: CustomerCodeRecord): void;
  configure(record: CustomerCodeRecord): void;
  generateKey(record: CustomerCodeRecord): void;
  sendTest(record: CustomerCodeRecord): void;
  resume(record: CustomerCodeRecord): void;
}

/** The endpoint's state: paused (red), failing (orange), healthy (green) or idle. */
function HealthTag({ record, t }: { record: CustomerCodeRecord; t: TFunction }) {
  const { health } = record;
  if (!record.config) return <Tag>{t('health.unconfigured')}</Tag>;
  if (health.pausedAt) return <Tag color="red">{t('health.paused')}</Tag>;
  if (health.consecutiveFailures > 0) return <Tag color="orange">{t('health.failing', { n: health.consecutiveFailures })}</Tag>;
  return <Tag color={health.attempts ? 'green' : 'default'}>{t(health.attempts ? 'health.healthy' : 'health.idle')}</Tag>;
}

/** The columns in the current language. */
export function codeColumns(t: TFunction, actions: CodeActions, language: Language): TableColumnsType<CustomerCodeRecord> {
  return [
    { title: t('customerCode'), dataIndex: 'customerCode', fixed: 'left', render: (code: string, r) => <Space>{code}{!r.enabled && <Tag>{t('disabled')}</Tag>}</Space> },
    { title: t('name'), dataIndex: 'name' },
    { title: t('contact'), dataIndex: 'contact', render: (v: string) => v || DASH },
    { title: t('keys'), dataIndex: 'keys', render: (keys: CustomerCodeRecord['keys']) => (keys.length ? keys.map((k) => <Tag key={k.id} color={k.validUntil ? 'default' : 'blue'}>…{k.hint}</Tag>) : <Tag color="warning">{t('noKey')}</Tag>) },
    { title: t('endpoint'), dataIndex: ['config', 'url'], render: (url?: string) => url ?? DASH },
    { title: t('eventTypes'), dataIndex: ['config', 'eventTypes'], width: 200, ellipsis: true, render: (types?: string[]) => (types ? listText(types.map((e) => t(`eventType.${e}`)), language) : DASH) },
    { title: t('healthTitle'), key: 'health', render: (_, r) => <HealthTag record={r} t={t} /> },
    { title: t('successRate'), key: 'rate', align: 'right', render: (_, r) => (r.health.successRate === null ? DASH : `${(r.health.successRate * 100).toFixed(1)}%`) },
    { title: t('p95'), key: 'p95', align: 'right', render: (_, r) => (r.health.p95LatencyMs === null ? DASH : `${r.health.p95LatencyMs} ms`) },
    { title: t('lastSuccess'), key: 'last', render: (_, r) => formatTime(r.health.lastSuccessAt) },
    { title: t('backlog'), key: 'backlog', render: (_, r) => <Tooltip title={t('backlogHint')}>{r.health.pending} / {r.health.dead}</Tooltip> },
    {
      title: t('actions'), key: 'actions', fixed: 'right',
      render: (_, r) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => actions.edit(r)}>{t('edit')}</Button>
          <Button type="link" size="small" onClick={() => actions.generateKey(r)}>{t('generateKey')}</Button>
          <Button type="link" size="small" onClick={() => actions.configure(r)}>{t('configure')}</Button>
          <Button type="link" size="small" disabled={!r.config} onClick={() => actions.sendTest(r)}>{t('sendTest')}</Button>
          {r.health.pausedAt && <Button type="link" size="small" danger onClick={() => actions.resume(r)}>{t('resume')}</Button>}
        </Space>
      ),
    },
  ];
}
