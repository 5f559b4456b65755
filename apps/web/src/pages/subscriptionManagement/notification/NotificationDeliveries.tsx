/**
 * 通知投递记录: every notification's delivery to each channel, newest first, filtered by
 * time, channel and state; sent (green), retrying (orange: pending after a failed attempt), failed
 * with the reason (red), suppressed by storm control (grey). Polls every 5 s.
 */
import { NOTIFICATION_DELIVERY_STATES, type NotificationDeliveryRecord, notificationEndpoints as api } from '@iot/contract';
import { Form, Select, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../../api/useApiQuery';
import { DASH, formatTime } from '../../../components/logColumns';
import { LogFilterItems, logQuery } from '../../../components/logFilters';
import { ServerTable } from '../../../components/ServerTable';
import { SEVERITY_COLORS } from '../../../components/alertColumns';
import { alertKindLabel } from './alertKinds';

const STATE_COLORS: Record<string, string> = { pending: 'blue', retrying: 'orange', sent: 'green', failed: 'red', suppressed: 'default' };
/** The state shown: a pending delivery that has failed before is retrying. */
const shownState = (r: NotificationDeliveryRecord) => (r.state === 'pending' && r.attempts > 0 ? 'retrying' : r.state);

function columns(t: TFunction): TableColumnsType<NotificationDeliveryRecord> {
  return [
    { title: t('createdAt'), dataIndex: 'createdAt', render: formatTime },
    { title: t('channel'), dataIndex: 'channelName', render: (name: string | null, r) => (r.accountName ? `${name ?? '—'} → ${r.accountName}` : name ?? t('deletedChannel')) },
    { title: t('alertKind'), dataIndex: 'kind', render: (kind: string) => <Tag>{alertKindLabel(t, kind)}</Tag> },
    { title: t('severity'), dataIndex: 'severity', render: (s: string) => <Tag color={SEVERITY_COLORS[s]}>{t(`deviceLog:severities.${s}`)}</Tag> },
    { title: t('device'), dataIndex: 'deviceName', render: (name: string | null, r) => `${t(`deviceLog:deviceKinds.${r.deviceKind}`)} · ${name ?? `#${r.deviceId}`}` },
    { title: t('count'), dataIndex: 'count', align: 'right' },
    { title: t('state'), dataIndex: 'state', render: (_: unknown, r) => <Tag color={STATE_COLORS[shownState(r)]}>{t(`states.${shownState(r)}`)}</Tag> },
    { title: t('attempts'), dataIndex: 'attempts', align: 'right' },
    { title: t('reason'), dataIndex: 'lastError', width: 240, ellipsis: { showTitle: true }, render: (v: string | null) => (v === 'storm control' ? t('stormSuppressed') : (v ?? DASH)) },
    { title: t('sentAt'), dataIndex: 'sentAt', render: formatTime },
    { title: t('nextAttempt'), dataIndex: 'nextAttemptAt', render: formatTime },
  ];
}

/** The delivery log. */
export function NotificationDeliveries() {
  const { t } = useTranslation(['notification', 'deviceLog']);
  const channels = useApiQuery(api.channel.list);
  const cols = useMemo(() => columns(t), [t]);
  const all = { value: 'all', label: t('all') };
  const filters = (
    <>
      <LogFilterItems keyword={false} />
      <Form.Item htmlFor="delivery-channel" name="channelId" label={t('channel')}>
        <Select id="delivery-channel" style={{ width: 180 }} options={[all, ...(channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))]} />
      </Form.Item>
      <Form.Item htmlFor="delivery-state" name="state" label={t('state')}>
        <Select id="delivery-state" style={{ width: 120 }} options={[all, ...NOTIFICATION_DELIVERY_STATES.map((s) => ({ value: s, label: t(`states.${s}`) }))]} />
      </Form.Item>
    </>
  );
  return (
    <ServerTable<NotificationDeliveryRecord>
      endpoint={api.delivery.list} columns={cols} rowKey="id" filters={filters}
      initialFilters={{ channelId: 'all', state: 'all' }} toQuery={logQuery} refetchInterval={5000} defaultSort={{ field: 'createdAt' }}
    />
  );
}
