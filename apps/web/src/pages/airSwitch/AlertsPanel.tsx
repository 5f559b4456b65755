/** The switches' alarms (GET /iot/v1/airSwitch/alerts, active first, polled) with acknowledgement (the note given on 报警日志 or in the inbox shows here). */
import { type AirSwitchAlertRecord, airSwitchEndpoints } from '@iot/contract';
import { Badge, Button, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useApiQuery } from '../../api/useApiQuery';
import { formatTime } from './format';

const SEVERITY_COLOR: Record<string, string> = { critical: 'red', major: 'orange', minor: 'gold', warning: 'blue' };

export function AlertsPanel() {
  const { t } = useTranslation('airSwitch');
  const [current, setCurrent] = useState(1);
  const { data } = useApiQuery(airSwitchEndpoints.alerts, { current, size: 10 }, { refetchInterval: 5000, keepPrevious: true });
  const ack = useApiMutation({
    mutationFn: (id: number) => call(airSwitchEndpoints.acknowledgeAlerts, { body: { ids: [id] } }), invalidate: [airSwitchEndpoints.alerts],
  });
  const detail = (a: AirSwitchAlertRecord) => (a.kind === 'trip' && a.detail ? t(`tripReasons.${a.detail}`) : a.detail ?? '');
  const columns: TableColumnsType<AirSwitchAlertRecord> = [
    { title: t('lastAt'), dataIndex: 'lastAt', render: formatTime, width: 170 },
    { title: t('airSwitch'), key: 'switch', render: (_, a) => `${a.airSwitchName} (${a.serial})` },
    { title: t('circuit'), dataIndex: 'circuit', width: 60 },
    { title: t('kind'), key: 'kind', render: (_, a) => <Tag>{t(`alertKinds.${a.kind}`)}</Tag> },
    { title: t('severity'), dataIndex: 'severity', render: (s: string) => <Tag color={SEVERITY_COLOR[s]}>{t(`severities.${s}`)}</Tag> },
    { title: t('state'), dataIndex: 'state', render: (s: string) => <Badge status={s === 'active' ? 'error' : 'default'} text={t(`alertStates.${s}`)} /> },
    { title: t('occurrences'), dataIndex: 'occurrences', width: 70 },
    { title: t('detailText'), key: 'detail', render: (_, a) => detail(a) },
    {
      title: t('actions'), key: 'ack',
      render: (_, a) => (a.acknowledgedAt ? [t('acknowledged'), a.acknowledgedBy, a.acknowledgeNote].filter(Boolean).join(' · ') : <Button size="small" onClick={() => ack.run(a.id)}>{t('acknowledge')}</Button>),
    },
  ];
  return <Table<AirSwitchAlertRecord> size="small" rowKey="id" columns={columns} dataSource={data?.records}
    pagination={{ current, pageSize: 10, total: data?.total ?? 0, onChange: setCurrent }} />;
}
