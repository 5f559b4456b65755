/**
 * The tab strip: one tab per visited route (at most MAX_TABS), closable, with a right-click menu
 * offering "close others" and "close all".
 */
import { findRoute } from '@iot/contract';
import { Dropdown, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLanguage } from '../useSession';
import { useTabs } from './useTabs';

/** The console's tab strip. */
export function TabStrip() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const { tabs, active, close, closeOthers, closeAll } = useTabs();

  const items = tabs.map((path) => ({
    key: path,
    closable: true,
    label: (
      <Dropdown
        trigger={['contextMenu']}
        menu={{
          items: [{ key: 'others', label: t('closeOthers') }, { key: 'all', label: t('closeAll') }],
          onClick: ({ key }) => (key === 'others' ? closeOthers(path) : closeAll()),
        }}
      >
        <span className="tab-label">{findRoute(path)?.title[language] ?? path}</span>
      </Dropdown>
    ),
  }));

  return (
    <Tabs
      className="tab-strip"
      type="editable-card"
      hideAdd
      size="small"
      activeKey={tabs.includes(active) ? active : undefined}
      items={items}
      onChange={(key) => navigate(key)}
      onEdit={(key, action) => {
        if (action === 'remove' && typeof key === 'string') close(key);
      }}
    />
  );
}
