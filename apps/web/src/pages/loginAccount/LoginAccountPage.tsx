/**
 * 登录账号: two tabs, the data centre's login accounts (Accounts) and its API keys for integrators
 * (ApiKeys, issue #28). The tab is kept in `?tab=` so a reload or a link opens it again.
 */
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Accounts } from './Accounts';
import { ApiKeys } from './ApiKeys';

const TABS = ['accounts', 'apiKeys'] as const;

/** The login-account page. */
export default function LoginAccountPage() {
  const { t } = useTranslation('apiKey');
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((key) => key === params.get('tab')) ?? 'accounts';
  return (
    <Tabs
      activeKey={tab}
      destroyOnHidden
      onChange={(key) => setParams({ tab: key })}
      items={[
        { key: 'accounts', label: t('tabs.accounts'), children: <Accounts /> },
        { key: 'apiKeys', label: t('tabs.apiKeys'), children: <ApiKeys /> },
      ]}
    />
  );
}
