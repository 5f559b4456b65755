/** Columns and filters of the alert pages (报警日志, 门锁警告). */
import { type AlertRecord, ALERT_SEVERITIES, ALERT_STATES, alertDetailText, type Language, protocol } from '@iot/contract';
import { Badge, Button, Form, Popconfirm, Select, Tag, Tooltip, type TableColumnsType } from 'antd';
import type { Key } from 'react';
import type { TFunction } from 'i18next';
import { DASH, formatTime, lockRefColumns } from './logColumns';
import { LogFilterItems } from './logFilters';

/** Tag colour of each severity. */
export const SEVERITY_COLORS: Record<string, string> = { critical: 'red', major: 'volcano', minor: 'gold', warning: 'blue' };

/** Alert columns in the current language (state as a Badge, kind and severity as Tags; the detail: what the kind means, the lock's own text on hover). */
export function alertColumns(t: TFunction, language: Language): TableColumnsType<AlertRecord> {
  return [
    { title: t('lastAt'), dataIndex: 'lastAt', render: formatTime, sorter: true },
    ...lockRefColumns<AlertRecord>(t),
    { title: t('kind'), dataIndex: 'kind', render: (kind: string) => <Tag>{t(`kinds.${kind}`)}</Tag> },
    { title: t('severity'), dataIndex: 'severity', render: (s: string) => <Tag color={SEVERITY_COLORS[s]}>{t(`severities.${s}`)}</Tag> },
    { title: t('state'), dataIndex: 'state', render: (s: string) => <Badge status={s === 'active' ? 'error' : 'default'} text={t(`states.${s}`)} /> },
    { title: t('occurrences'), dataIndex: 'occurrences', align: 'right', sorter: true },
    {
      title: t('detail'), dataIndex: 'detail',
      render: (value: string | null, row) => (
        <Tooltip title={value ? t('common:deviceText', { text: value }) : undefined}>
          <span className="alert-detail">{alertDetailText(row.kind, value, language) || DASH}</span>
        </Tooltip>
      ),
    },
    { title: t('firstAt'), dataIndex: 'firstAt', render: formatTime, sorter: true },
    { title: t('clearedAt'), dataIndex: 'clearedAt', render: formatTime },
    {
      title: t('acknowledgement'), dataIndex: 'acknowledgedAt',
      render: (at: string | null, row) => (at ? [row.acknowledgedBy, formatTime(at), row.acknowledgeNote].filter(Boolean).join(' · ') : <Tag>{t('unacknowledged')}</Tag>),
    },
  ];
}

/**
 * Time range, keyword, kind, severity and state filters; `kinds` and their labels' group in the
 * deviceLog namespace (default: the locks' alert kinds), the keyword's label and placeholder (default: the lock's).
 */
export function AlertFilters({ t, kinds = Object.keys(protocol.ALERT_KINDS), kindLabels = 'kinds', keyword }: { t: TFunction; kinds?: readonly string[]; kindLabels?: string; keyword?: { label: string; placeholder: string } }) {
  const all = { value: 'all', label: t('all') };
  return (
    <>
      <LogFilterItems {...keyword} />
      <Form.Item name="kind" label={t('kind')}>
        <Select style={{ width: 150 }} options={[all, ...kinds.map((k) => ({ value: k, label: t(`${kindLabels}.${k}`) }))]} />
      </Form.Item>
      <Form.Item name="severity" label={t('severity')}>
        <Select style={{ width: 100 }} options={[all, ...ALERT_SEVERITIES.map((s) => ({ value: s, label: t(`severities.${s}`) }))]} />
      </Form.Item>
      <Form.Item name="state" label={t('state')}>
        <Select style={{ width: 100 }} options={[all, ...ALERT_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))]} />
      </Form.Item>
    </>
  );
}

/** Batch acknowledgement of the selected alerts, after a confirmation. */
export function acknowledgeSelected(t: TFunction, acknowledge: (ids: number[]) => Promise<unknown>) {
  return (selected: Key[], clear: () => void) => (
    <Popconfirm title={t('acknowledgeManyConfirm', { count: selected.length })} onConfirm={() => acknowledge(selected.map(Number)).then(clear)}>
      <Button>{t('acknowledgeMany', { count: selected.length })}</Button>
    </Popconfirm>
  );
}

/** Initial values of AlertFilters. */
export const ALERT_FILTER_DEFAULTS = { kind: 'all', severity: 'all', state: 'all' };
