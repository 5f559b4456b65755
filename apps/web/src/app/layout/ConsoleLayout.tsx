/**
 * The /home layout (spec §2): header, sidebar, tab strip and content. The sidebar starts collapsed
 * below SIDEBAR_COLLAPSE_BELOW_PX. Changing data centre drops cached tenant data and remounts the page.
 */
import { PRODUCT_TITLE, PRODUCT_TITLE_EN, SIDEBAR_COLLAPSE_BELOW_PX } from '@iot/contract';
import { Layout } from 'antd';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { dropTenantData } from '../../session/tenantData';
import { useLanguage } from '../../hooks/useSession';
import { ConsoleHeader } from './ConsoleHeader';
import { Sidebar } from './Sidebar';
import { TabStrip } from './TabStrip';

/** The console frame around every layout route. */
export function ConsoleLayout() {
  const language = useLanguage();
  const [collapsed, setCollapsed] = useState(() => window.innerWidth < SIDEBAR_COLLAPSE_BELOW_PX);
  const [viewKey, setViewKey] = useState(0);

  const reloadView = () => {
    dropTenantData();
    setViewKey((key) => key + 1);
  };

  return (
    <Layout className="console">
      <Layout.Sider className="console-sider" width={language === 'en-US' ? 264 : 232} collapsed={collapsed} trigger={null} collapsible>
        <div className="console-logo" title={language === 'en-US' ? PRODUCT_TITLE_EN : PRODUCT_TITLE}>
          {collapsed ? 'IoT' : language === 'en-US' ? PRODUCT_TITLE_EN : PRODUCT_TITLE}
        </div>
        <Sidebar collapsed={collapsed} />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="console-header-bar">
          <ConsoleHeader collapsed={collapsed} onToggle={() => setCollapsed((value) => !value)} onTenantChanged={reloadView} />
        </Layout.Header>
        <TabStrip />
        <Layout.Content className="console-content">
          <div key={viewKey} className="console-page">
            <Outlet />
          </div>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
