/**
 * The tab strip: one tab per visited route (at most MAX_TABS), closable. Each tab's right-click menu,
 * and a visible menu button for the active tab, offer 刷新 (refetch the page's data), 关闭左侧,
 * 关闭右侧, 关闭其他 and 关闭所有. A focused tab closes with Delete or Backspace (antd's tab list, the
 * WAI-ARIA tabs pattern's deletable tabs); the close buttons are for the mouse and hidden from assistive
 * technology, as a tab list may own only tabs (axe's aria-required-children).
 */
import { findRoute } from '@iot/contract';
import { DownOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown, type MenuProps, Tabs } from 'antd';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLanguage } from '../../hooks/useSession';
import { useTabs } from './useTabs';

/** The console's tab strip. */
export function TabStrip() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { tabs, active, close, closeOthers, closeLeft, closeRight, closeAll } = useTabs();
  const bar = useRef<HTMLElement>(null);
  // After every render (antd sets the active tab's close button back in the tab order).
  useLayoutEffect(() => {
    for (const button of bar.current?.querySelectorAll('.ant-tabs-tab-remove') ?? []) {
      button.setAttribute('aria-hidden', 'true');
      button.setAttribute('tabindex', '-1');
    }
  });

  /** The tab menu of `path`. */
  const menuOf = (path: string): MenuProps => {
    const index = tabs.indexOf(path);
    return {
      items: [
        { key: 'refresh', label: t('tabRefresh') },
        { type: 'divider' },
        { key: 'left', label: t('closeLeft'), disabled: index <= 0 },
        { key: 'right', label: t('closeRight'), disabled: index < 0 || index === tabs.length - 1 },
        { key: 'others', label: t('closeOthers'), disabled: tabs.length <= 1 },
        { key: 'all', label: t('closeAll') },
      ],
      onClick: ({ key }) => {
        if (key === 'refresh') {
          if (path !== active) navigate(path);
          void client.invalidateQueries({ refetchType: 'active' });
        } else if (key === 'left') closeLeft(path);
        else if (key === 'right') closeRight(path);
        else if (key === 'others') closeOthers(path);
        else closeAll();
      },
    };
  };

  const items = tabs.map((path) => ({
    key: path,
    closable: true,
    label: (
      <Dropdown trigger={['contextMenu']} menu={menuOf(path)}>
        <span className="tab-label">{findRoute(path)?.title[language] ?? path}</span>
      </Dropdown>
    ),
  }));
  const current = tabs.includes(active) ? active : undefined;

  // A landmark of its own (axe's region rule): the open pages are navigation beside the header and the page.
  // The menu button sits beside the tab list, not in it: a tablist may hold only tabs (axe's aria-required-children).
  return (
    <nav aria-label={t('openPages')} className="tab-strip-bar" ref={bar}>
      <Tabs
        className="tab-strip"
        type="editable-card"
        hideAdd
        size="small"
        activeKey={current}
        items={items}
        onChange={(key) => navigate(key)}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') close(key);
        }}
      />
      {current && (
        <Dropdown trigger={['click']} menu={menuOf(current)} placement="bottomRight">
          <Button type="text" size="small" className="tab-menu" aria-label={t('tabMenu')} icon={<DownOutlined />} />
        </Dropdown>
      )}
    </nav>
  );
}
