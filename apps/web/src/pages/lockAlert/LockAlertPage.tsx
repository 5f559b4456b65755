/**
 * 门锁警告: the alerts operators watch, active first and most severe first (activeFirst), with severity
 * tags and acknowledgement (POST /iot/v1/lockAlert/acknowledge, one or the selected ones) after a
 * confirmation; refreshed every 5 s.
 */
import { type AlertRecord, alertEndpoints } from '@iot/contract';
import { Button, Popconfirm, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useLanguage } from '../../app/useSession';
import { logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { ALERT_FILTER_DEFAULTS, AlertFilters, acknowledgeSelected, alertColumns } from './columns';

const REFETCH_MS = 5000;

/** The lock alerts page. */
export default function LockAlertPage() {
  const { t } = useTranslation('deviceLog');
  const language = useLanguage();
  const { run: acknowledge } = useApiMutation({
    mutationFn: (ids: number[]) => call(alertEndpoints.acknowledge, { body: { ids } }),
    success: (_, ids) => t('acknowledgedMany', { count: ids.length }),
    invalidate: [alertEndpoints.list],
  });
  const columns = useMemo<TableColumnsType<AlertRecord>>(() => {
    return [
      ...alertColumns(t, language),
      {
        title: t('actions'), key: 'actions', fixed: 'right',
        render: (_: unknown, row) => (row.acknowledgedAt ? t('acknowledgeDone') : (
          <Popconfirm title={t('acknowledgeConfirm')} onConfirm={() => acknowledge([row.id])}>
            <Button type="link" size="small">{t('acknowledge')}</Button>
          </Popconfirm>
        )),
      },
    ];
  }, [t, language, acknowledge]);
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
      selectable={(row) => !row.acknowledgedAt}
      batchActions={acknowledgeSelected(t, acknowledge)}
    />
  );
}
