/**
 * 报警日志, device kind 空开: the data centre's air switch alarms (GET /iot/v1/airSwitch/alertLog/list),
 * newest first, with the log's filters, CSV / Excel export and acknowledgement (one with an optional
 * note, or the selected ones) after a confirmation; refreshed every 10 s.
 */
import { type AirSwitchAlertRecord, AIR_SWITCH_ALERT_KINDS, airSwitchAlertLogEndpoints } from '@iot/contract';
import { Badge, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { DASH, formatTime } from '../../components/logColumns';
import { logFormValues, logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { AlertFilters, acknowledgeSelected, SEVERITY_COLORS } from '../../components/alertColumns';
import { AcknowledgeAlertButton } from '../../inbox/AcknowledgeAlert';
import { DeviceKindFilter, withoutDeviceKind } from './DeviceKindFilter';

const REFETCH_MS = 10_000;
const DEFAULTS = { kind: 'all', severity: 'all', state: 'all' };

function columns(t: TFunction): TableColumnsType<AirSwitchAlertRecord> {
  return [
    { title: t('lastAt'), dataIndex: 'lastAt', render: formatTime, sorter: true },
    { title: t('serial'), dataIndex: 'serial' },
    { title: t('airSwitch'), dataIndex: 'airSwitchName' },
    { title: t('circuit'), dataIndex: 'circuit', align: 'right' },
    { title: t('kind'), dataIndex: 'kind', render: (kind: string) => <Tag>{t(`airSwitchKinds.${kind}`)}</Tag> },
    { title: t('severity'), dataIndex: 'severity', render: (s: string) => <Tag color={SEVERITY_COLORS[s]}>{t(`severities.${s}`)}</Tag> },
    { title: t('state'), dataIndex: 'state', render: (s: string) => <Badge status={s === 'active' ? 'error' : 'default'} text={t(`states.${s}`)} /> },
    { title: t('occurrences'), dataIndex: 'occurrences', align: 'right', sorter: true },
    { title: t('detail'), dataIndex: 'detail', render: (value: string | null, row) => (row.kind === 'trip' && value ? t(`tripReasons.${value}`) : value ?? DASH) },
    { title: t('firstAt'), dataIndex: 'firstAt', render: formatTime, sorter: true },
    { title: t('clearedAt'), dataIndex: 'clearedAt', render: formatTime },
    {
      title: t('acknowledgement'), dataIndex: 'acknowledgedAt', fixed: 'right',
      render: (at: string | null, row) => (at
        ? [row.acknowledgedBy, formatTime(at), row.acknowledgeNote].filter(Boolean).join(' · ')
        : <AcknowledgeAlertButton alertId={row.id} deviceKind="airSwitch" />),
    },
  ];
}

/** The air switch alarms of the alarm log. */
export function AirSwitchAlertLog() {
  const { t } = useTranslation('deviceLog');
  const { run: acknowledge } = useApiMutation({
    mutationFn: (ids: number[]) => call(airSwitchAlertLogEndpoints.acknowledge, { body: { ids } }),
    success: (_, ids) => t('acknowledgedMany', { count: ids.length }),
    invalidate: [airSwitchAlertLogEndpoints.list],
  });
  const cols = useMemo(() => columns(t), [t]);
  return (
    <ServerTable<AirSwitchAlertRecord>
      endpoint={airSwitchAlertLogEndpoints.list}
      exportEndpoint={airSwitchAlertLogEndpoints.export}
      columns={cols}
      rowKey="id"
      filters={<><DeviceKindFilter /><AlertFilters t={t} kinds={AIR_SWITCH_ALERT_KINDS} kindLabels="airSwitchKinds" keyword={{ label: t('airSwitch'), placeholder: t('airSwitchKeywordPlaceholder') }} /></>}
      initialFilters={DEFAULTS}
      fromQuery={(query) => ({ ...DEFAULTS, ...logFormValues(query) })}
      toQuery={logQuery}
      toRequest={withoutDeviceKind}
      refetchInterval={REFETCH_MS}
      selectable={(row) => !row.acknowledgedAt}
      batchActions={acknowledgeSelected(t, acknowledge)}
    />
  );
}
