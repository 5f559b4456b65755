/**
 * 订阅管理: the tenant's customer codes with their key, push configuration and endpoint
 * health (CustomerCodes), the delivery log with filters, export and replay (Deliveries), the dead
 * letters (the same log, state "dead"), and, with the demo on, the embedded demo receiver's switch.
 * Beside them, under the same authority: the operators' notification channels, rules and
 * their delivery log. The tab is in the URL (`?tab=`).
 */
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CustomerCodes } from './CustomerCodes';
import { Deliveries } from './Deliveries';
import { ChannelsTab } from './notification/ChannelsTab';
import { NotificationDeliveries } from './notification/NotificationDeliveries';
import { RulesTab } from './notification/RulesTab';

const TABS = ['codes', 'deliveries', 'dead', 'channels', 'rules', 'notificationDeliveries'] as const;

/** The subscription management page. */
export default function SubscriptionManagementPage() {
  const { t } = useTranslation(['subscription', 'notification']);
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((key) => key === params.get('tab')) ?? 'codes';
  return (
    <Tabs
      activeKey={tab}
      destroyOnHidden
      onChange={(key) => setParams({ tab: key })}
      items={[
        { key: 'codes', label: t('tabs.codes'), children: <CustomerCodes /> },
        { key: 'deliveries', label: t('tabs.deliveries'), children: <Deliveries /> },
        { key: 'dead', label: t('tabs.dead'), children: <Deliveries dead /> },
        { key: 'channels', label: t('notification:tabs.channels'), children: <ChannelsTab /> },
        { key: 'rules', label: t('notification:tabs.rules'), children: <RulesTab /> },
        { key: 'notificationDeliveries', label: t('notification:tabs.deliveries'), children: <NotificationDeliveries /> },
      ]}
    />
  );
}
