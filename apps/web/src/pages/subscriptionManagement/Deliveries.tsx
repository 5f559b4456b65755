/**
 * The delivery log of 订阅管理 (or, with `dead`, the dead letters): event, attempts, last status code,
 * latency, error and next retry, filtered by time, customer code, event type, state and lock,
 * exportable; selected rows can be replayed (same event id). Polls every 5 s.
 */
import { type DeliveryRecord, DELIVERY_STATES, PUSH_CONTROL_TYPES, PUSH_EVENT_TYPES, subscriptionEndpoints as api } from '@iot/contract';
import { Button, Form, Select, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { RemoteSelect } from '../../components/RemoteSelect';
import { LockLink } from '../../components/LockLink';
import { DASH, formatTime } from '../../components/logColumns';
import { LogFilterItems, logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';

const STATE_COLORS: Record<string, string> = { pending: 'orange', delivered: 'green', dead: 'red' };

function columns(t: TFunction): TableColumnsType<DeliveryRecord> {
  return [
    { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime },
    { title: t('customerCode'), dataIndex: 'customerCode' },
    { title: t('eventTypes'), dataIndex: 'eventType', render: (type: string) => t(`eventType.${type}`) },
    { title: t('lock'), dataIndex: 'imei', render: (_: unknown, r) => (r.imei ? <LockLink imei={r.imei}>{r.lockName ?? r.imei}</LockLink> : DASH) },
    { title: t('state'), dataIndex: 'state', render: (s: string) => <Tag color={STATE_COLORS[s]}>{t(`deliveryState.${s}`)}</Tag> },
    { title: t('attempts'), dataIndex: 'attempts', align: 'right' },
    { title: t('status'), dataIndex: 'lastStatus', align: 'right', render: (v: number | null) => v ?? DASH },
    { title: t('latency'), dataIndex: 'lastLatencyMs', align: 'right', render: (v: number | null) => (v === null ? DASH : `${v} ms`) },
    { title: t('error'), dataIndex: 'lastError', ellipsis: true, render: (v: string | null) => v ?? DASH },
    { title: t('nextAttempt'), dataIndex: 'nextAttemptAt', render: formatTime },
    { title: t('eventId'), dataIndex: 'eventId', render: (id: string, r) => <span title={id}>{id.slice(0, 8)}{r.replayOf ? <Tag style={{ marginInlineStart: 4 }}>{t('replay')}</Tag> : null}</span> },
  ];
}

/** The log; `dead`: only dead letters. */
export function Deliveries({ dead = false }: { dead?: boolean }) {
  const { t } = useTranslation('subscription');
  const replay = useApiMutation({
    mutationFn: (ids: number[]) => call(api.replay, { body: { ids } }),
    success: ({ replayed }) => t('replayed', { n: replayed }), invalidate: [api.deliveries, api.customerCodes],
  });
  const cols = useMemo(() => columns(t), [t]);
  const all = { value: 'all', label: t('all') };
  const filters = (
    <>
      <LogFilterItems />
      <Form.Item name="customerCode" label={t('customerCode')}>
        <RemoteSelect endpoint={api.customerCodes} query={(keyword) => ({ keyword })} records={(codes) => codes} allowClear style={{ width: 180 }}
          option={(code) => ({ value: code.customerCode, label: `${code.customerCode} ${code.name}` })} />
      </Form.Item>
      <Form.Item name="eventType" label={t('eventTypes')}>
        <Select style={{ width: 150 }} options={[all, ...[...PUSH_EVENT_TYPES, ...PUSH_CONTROL_TYPES].map((e) => ({ value: e, label: t(`eventType.${e}`) }))]} />
      </Form.Item>
      {!dead && <Form.Item name="state" label={t('state')}>
        <Select style={{ width: 120 }} options={[all, ...DELIVERY_STATES.map((s) => ({ value: s, label: t(`deliveryState.${s}`) }))]} />
      </Form.Item>}
    </>
  );
  return (
    <ServerTable<DeliveryRecord>
      endpoint={api.deliveries}
      exportEndpoint={api.exportDeliveries}
      columns={cols}
      rowKey="id"
      filters={filters}
      initialFilters={{ eventType: 'all', state: 'all' }}
      toQuery={(values) => ({ ...logQuery(values), ...(dead ? { state: 'dead' } : {}) })}
      refetchInterval={5000}
      batchActions={(selected, clear) => <Button type="primary" loading={replay.isPending} onClick={() => void replay.run(selected.map(Number)).then((done) => done && clear())}>{t('replaySelected', { n: selected.length })}</Button>}
    />
  );
}
