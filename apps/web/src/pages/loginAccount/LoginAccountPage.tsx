/**
 * 登录账号: three tabs, the data centre's login accounts (Accounts), its API keys for integrators
 * (ApiKeys) and its single sign-on rules (SsoRules). The tab is kept in `?tab=` so a reload or a link opens it again.
 */
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Accounts } from './Accounts';
import { ApiKeys } from './ApiKeys';
import { SsoRules } from './SsoRules';

const TABS = ['accounts', 'apiKeys', 'sso'] as const;

/** The login-account page. */
export default function LoginAccountPage() {
  const { t } = useTranslation(['apiKey', 'sso']);
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
        { key: 'sso', label: t('sso:tab'), children: <SsoRules /> },
      ]}
    />
  );
}
