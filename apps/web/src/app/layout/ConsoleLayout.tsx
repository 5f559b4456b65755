/**
 * The /home layout (spec §2): header, sidebar, tab strip and content. The sidebar starts collapsed
 * below SIDEBAR_COLLAPSE_BELOW_PX. Changing data centre drops cached tenant data and remounts the page.
 */
import { PRODUCT_TITLE, PRODUCT_TITLE_EN, SIDEBAR_COLLAPSE_BELOW_PX } from '@iot/contract';
import { Layout } from 'antd';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { queryClient } from '../queryClient';
import { USER_INFO_KEY, useLanguage } from '../useSession';
import { ConsoleHeader } from './ConsoleHeader';
import { DATA_CENTRES_KEY } from './DataCentreSelect';
import { Sidebar } from './Sidebar';
import { TabStrip } from './TabStrip';

const SESSION_WIDE = new Set<unknown>([USER_INFO_KEY[0], DATA_CENTRES_KEY[0]]);

/** The console frame around every layout route. */
export function ConsoleLayout() {
  const language = useLanguage();
  const [collapsed, setCollapsed] = useState(() => window.innerWidth < SIDEBAR_COLLAPSE_BELOW_PX);
  const [viewKey, setViewKey] = useState(0);

  const reloadView = () => {
    queryClient.removeQueries({ predicate: (query) => !SESSION_WIDE.has(query.queryKey[0]) });
    void queryClient.invalidateQueries({ queryKey: USER_INFO_KEY });
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
