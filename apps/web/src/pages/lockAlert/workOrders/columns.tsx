/** Columns, filters and row actions of the work-order tab (门锁警告 -> 工单). */
import { canTransition, type Language, WORK_ORDER_KINDS, WORK_ORDER_LABELS, WORK_ORDER_PRIORITIES, WORK_ORDER_STATES, type WorkOrderRecord, type WorkOrderState } from '@iot/contract';
import { Badge, Button, Form, Input, Popconfirm, Select, Space, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { DASH, formatTime } from '../../../components/logColumns';

/** Badge status of each state (also the alert table's order column). */
export const STATE_BADGES = { OPEN: 'error', IN_PROGRESS: 'processing', DONE: 'success', CANCELLED: 'default' } as const;
/** Tag colour of each priority. */
const PRIORITY_COLORS: Record<string, string> = { low: 'default', normal: 'blue', high: 'orange', urgent: 'red' };

export interface RowActions {
  edit(row: WorkOrderRecord): void;
  /** Opens the order's photos (any state: proof often comes after closing). */
  photos(row: WorkOrderRecord): void;
  move(row: WorkOrderRecord, state: WorkOrderState): void;
}

/** The columns; row actions follow WORK_ORDER_TRANSITIONS (cancel asks first). */
export function workOrderColumns(t: TFunction, language: Language, actions: RowActions): TableColumnsType<WorkOrderRecord> {
  const may = (row: WorkOrderRecord, to: WorkOrderState) => canTransition(row.state, to);
  return [
    { title: t('createdAt'), dataIndex: 'createdAt', width: 170, render: formatTime },
    { title: t('title'), dataIndex: 'title', width: 180, ellipsis: { showTitle: true } },
    { title: t('kind'), dataIndex: 'kind', width: 120, render: (k: WorkOrderRecord['kind']) => <Tag>{WORK_ORDER_LABELS.kinds[k][language]}</Tag> },
    { title: t('priority'), dataIndex: 'priority', width: 90, render: (p: WorkOrderRecord['priority']) => <Tag color={PRIORITY_COLORS[p]}>{WORK_ORDER_LABELS.priorities[p][language]}</Tag> },
    { title: t('state'), dataIndex: 'state', width: 100, render: (s: WorkOrderState) => <Badge status={STATE_BADGES[s]} text={WORK_ORDER_LABELS.states[s][language]} /> },
    {
      title: t('locks'), dataIndex: 'locks', width: 200, ellipsis: { showTitle: true },
      render: (locks: WorkOrderRecord['locks']) => locks.map((l, i) => <span key={l.lockId}>{i > 0 && ', '}<Link to={`/information?imei=${l.imei}`}>{l.lockName}</Link></span>),
    },
    { title: t('assignee'), dataIndex: 'assigneeName', width: 110, render: (name: string | null) => name ?? t('unassigned') },
    { title: t('dueAt'), dataIndex: 'dueAt', width: 170, render: formatTime },
    {
      title: t('confirmation'), key: 'confirmation', width: 130,
      render: (_, row) => (row.battery === null ? DASH : `${row.battery}% · ${row.confirmedAt ? t('confirmed') : t('awaitingHeartbeat')}`),
    },
    { title: t('notes'), dataIndex: 'notes', width: 180, ellipsis: { showTitle: true }, render: (notes: string) => notes || DASH },
    {
      title: t('actions'), key: 'actions', width: 260, fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          {row.state !== 'DONE' && row.state !== 'CANCELLED' && <Button type="link" size="small" onClick={() => actions.edit(row)}>{t('edit')}</Button>}
          <Button type="link" size="small" className="work-order-photos-button" onClick={() => actions.photos(row)}>
            {t('photos')}{row.photos.length > 0 ? ` (${row.photos.length})` : ''}
          </Button>
          {may(row, 'IN_PROGRESS') && <Button type="link" size="small" onClick={() => actions.move(row, 'IN_PROGRESS')}>{t('start')}</Button>}
          {may(row, 'DONE') && <Button type="link" size="small" onClick={() => actions.move(row, 'DONE')}>{t('done')}</Button>}
          {may(row, 'CANCELLED') && (
            <Popconfirm title={t('cancelConfirm', { title: row.title })} okText={t('ok')} cancelText={t('close')} onConfirm={() => actions.move(row, 'CANCELLED')}>
              <Button type="link" size="small" danger>{t('cancel')}</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
}

/** State, kind, priority and IMEI filters. */
export function WorkOrderFilters({ t, language }: { t: TFunction; language: Language }) {
  const all = { value: 'all', label: t('all') };
  const options = <K extends string>(keys: readonly K[], labels: Record<K, Record<Language, string>>) => [all, ...keys.map((k) => ({ value: k, label: labels[k][language] }))];
  return (
    <>
      <Form.Item name="state" label={t('state')}><Select style={{ width: 110 }} options={options(WORK_ORDER_STATES, WORK_ORDER_LABELS.states)} /></Form.Item>
      <Form.Item name="kind" label={t('kind')}><Select style={{ width: 130 }} options={options(WORK_ORDER_KINDS, WORK_ORDER_LABELS.kinds)} /></Form.Item>
      <Form.Item name="priority" label={t('priority')}><Select style={{ width: 100 }} options={options(WORK_ORDER_PRIORITIES, WORK_ORDER_LABELS.priorities)} /></Form.Item>
      <Form.Item name="imei" label="IMEI"><Input allowClear style={{ width: 170 }} maxLength={15} /></Form.Item>
    </>
  );
}

/** Initial values of WorkOrderFilters. */
export const WORK_ORDER_FILTER_DEFAULTS = { state: 'all', kind: 'all', priority: 'all' };

/** Form values -> list query ('all' and empty values dropped). */
export const workOrderQuery = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== 'all' && v !== '' && v !== undefined && v !== null));
