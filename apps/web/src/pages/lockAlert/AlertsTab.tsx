/**
 * 门锁警告's alert tab: the alerts operators watch, active first and most severe first (activeFirst), with severity
 * tags and acknowledgement (POST /iot/v1/lockAlert/acknowledge: one with an optional note, or the
 * selected ones) after a confirmation; refreshed every 5 s. Selected alerts become one work order
 * (生成工单, POST /iot/v1/workOrder/fromAlerts); each row shows the work orders it is in with their
 * states, linked to the work-order tab filtered by the alert.
 */
import { type AlertRecord, alertEndpoints, WORK_ORDER_LABELS, workOrderEndpoints } from '@iot/contract';
import { Badge, Button, Popconfirm, Space, type TableColumnsType } from 'antd';
import type { Key } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { useApiMutation } from '../../api/useApiMutation';
import { useMayCall } from '../../hooks/mayCall';
import { useLanguage } from '../../hooks/useSession';
import { logQuery } from '../../components/logFilters';
import { ServerTable } from '../../components/ServerTable';
import { AcknowledgeAlertButton } from '../../inbox/AcknowledgeAlert';
import { ALERT_FILTER_DEFAULTS, AlertFilters, acknowledgeSelected, alertColumns } from '../../components/alertColumns';
import { STATE_BADGES } from './workOrders/columns';

const REFETCH_MS = 5000;

/** The alert table of 门锁警告; `onOrdered` shows a new work order. */
export function AlertsTab({ onOrdered }: { onOrdered(id: number): void }) {
  const { t } = useTranslation(['deviceLog', 'workOrder']);
  const mayOrder = useMayCall(workOrderEndpoints.fromAlerts);
  const language = useLanguage();
  const { run: acknowledge } = useApiMutation({
    mutationFn: (ids: number[]) => call(alertEndpoints.acknowledge, { body: { ids } }),
    success: (_, ids) => t('acknowledgedMany', { count: ids.length }),
    invalidate: [alertEndpoints.list],
  });
  const { run: order } = useApiMutation({
    mutationFn: (alertIds: number[]) => call(workOrderEndpoints.fromAlerts, { body: { alertIds } }),
    success: (created) => t('workOrder:created', { id: created.id }),
    invalidate: [workOrderEndpoints.list], onSuccess: (created) => onOrdered(created.id),
  });
  const columns = useMemo<TableColumnsType<AlertRecord>>(() => {
    return [
      ...alertColumns(t, language),
      {
        title: t('actions'), key: 'actions', fixed: 'right',
        render: (_: unknown, row) => (
          <Space size={2} direction="vertical">
            {row.acknowledgedAt ? t('acknowledgeDone') : <AcknowledgeAlertButton alertId={row.id} />}
            {row.workOrders.length > 0 && (
              <Link to={`/lockAlert?tab=workOrders&alertId=${row.id}`} title={t('workOrder:viewOrders')}>
                {row.workOrders.map((order) => (
                  <div key={order.id}><Badge status={STATE_BADGES[order.state]} text={`#${order.id} ${WORK_ORDER_LABELS.states[order.state][language]}`} /></div>
                ))}
              </Link>
            )}
          </Space>
        ),
      },
    ];
  }, [t, language]);
  const batch = (selected: Key[], clear: () => void) => (
    <Space>
      {acknowledgeSelected(t, acknowledge)(selected, clear)}
      {mayOrder && (
        <Popconfirm title={t('workOrder:fromAlertsConfirm', { count: selected.length })} onConfirm={() => order(selected.map(Number)).then(clear)}>
          <Button>{t('workOrder:fromAlerts', { count: selected.length })}</Button>
        </Popconfirm>
      )}
    </Space>
  );
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
      batchActions={batch}
    />
  );
}
