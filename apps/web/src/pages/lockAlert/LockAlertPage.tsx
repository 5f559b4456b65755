/**
 * 门锁警告: the alerts operators watch (AlertsTab) and, beside them, the data centre's work orders
 * (WorkOrdersTab). The tab is in the URL (`?tab=workOrders`), so the device page and an
 * alert row link straight to the orders of a lock (`imei=`) or an alert (`alertId=`).
 */
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AlertsTab } from './AlertsTab';
import { WorkOrdersTab } from './workOrders/WorkOrdersTab';

/** The lock alerts page. */
export default function LockAlertPage() {
  const { t } = useTranslation(['workOrder', 'deviceLog']);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'workOrders' ? 'workOrders' : 'alerts';
  return (
    <Tabs
      activeKey={tab}
      destroyOnHidden
      onChange={(key) => setParams({ tab: key })}
      items={[
        { key: 'alerts', label: t('tabs.alerts'), children: <AlertsTab onOrdered={() => setParams({ tab: 'workOrders' })} /> },
        { key: 'workOrders', label: t('tabs.workOrders'), children: <WorkOrdersTab /> },
      ]}
    />
  );
}
