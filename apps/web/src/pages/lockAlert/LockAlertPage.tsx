/**
 * 门锁警告: the alerts operators watch, active first and most severe first (activeFirst), with severity
 * tags and acknowledgement (POST /iot/v1/lockAlert/acknowledge) after a confirmation; refreshed every 5 s.
 */
import { type AlertRecord, alertEndpoints } from '@iot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { ALERT_FILTER_DEFAULTS, AlertFilters, alertColumns } from './columns';

const REFETCH_MS = 5000;

/** The lock alerts page. */
export default function LockAlertPage() {
  const { t } = useTranslation('deviceLog');
  const client = useQueryClient();
  const columns = useMemo<TableColumnsType<AlertRecord>>(() => {
    const acknowledge = async (id: number) => {
      await call(alertEndpoints.acknowledge, { body: { ids: [id] } });
      await client.invalidateQueries({ queryKey: [alertEndpoints.list.path] });
    };
    return [
      ...alertColumns(t),
      {
        title: t('actions'), key: 'actions', fixed: 'right',
        render: (_: unknown, row) => (row.acknowledgedAt ? t('acknowledgeDone') : (
          <Popconfirm title={t('acknowledgeConfirm')} onConfirm={() => acknowledge(row.id)}>
            <Button type="link" size="small">{t('acknowledge')}</Button>
          </Popconfirm>
        )),
      },
    ];
  }, [t, client]);
  return (
    <ServerTable<AlertRecord>
      endpoint={alertEndpoints.list}
      exportEndpoint={alertEndpoints.export}
      columns={columns}
      rowKey="id"
      filters={<AlertFilters t={t} />}
      initialFilters={ALERT_FILTER_DEFAULTS}
      toQuery={(values) => ({ ...logQuery(values), activeFirst: true })}
      refetchInterval={REFETCH_MS}
    />
  );
}
