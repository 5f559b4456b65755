/**
 * Sidebar menu from the contract's tree filtered by the server's authorities (visibleMenu).
 * Only one top-level group is open at a time; a leaf navigates to `/${index}`.
 */
import { ACCOUNT_TYPE_ADMIN, visibleMenu, type Language, type MenuEntry } from '@iot/contract';
import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useLanguage, useUserInfo } from '../../hooks/useSession';
import { menuIcon } from './icons';

type Item = Required<MenuProps>['items'][number];

function toItems(entries: readonly MenuEntry[], language: Language): Item[] {
  return entries.map((entry) => ({
    key: entry.index,
    icon: menuIcon(entry.icon),
    // The full title on hover: a long English label may still be cut at the deepest level.
    label: <span title={entry.title[language]}>{entry.title[language]}</span>,
    children: entry.subs.length > 0 ? toItems(entry.subs, language) : undefined,
  }));
}

/** Indices of the groups containing `index`, outermost first. */
function ancestorsOf(entries: readonly MenuEntry[], index: string): string[] {
  for (const entry of entries) {
    if (entry.index === index) return [];
    const inner = ancestorsOf(entry.subs, index);
    if (inner.length > 0 || entry.subs.some((sub) => sub.index === index)) return [entry.index, ...inner];
  }
  return [];
}

/**
 * The console's sidebar menu. Collapsed, the current page's group is not opened on its own: its
 * flyout would cover the page after every reload; hovering opens it as usual.
 */
export function Sidebar({ collapsed = false }: { collapsed?: boolean }) {
  const { data: info } = useUserInfo();
  const language = useLanguage();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = pathname.slice(1);
  const menu = useMemo(() => (info ? visibleMenu(info.type === ACCOUNT_TYPE_ADMIN, info.authorities) : []), [info]);
  const items = useMemo(() => toItems(menu, language), [menu, language]);
  const topGroups = useMemo(() => new Set(menu.filter((entry) => entry.subs.length > 0).map((entry) => entry.index)), [menu]);
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const [flyout, setFlyout] = useState<string[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a page change or a collapse closes the flyout
  useEffect(() => setFlyout([]), [current, collapsed]);

  useEffect(() => {
    const ancestors = ancestorsOf(menu, current);
    if (ancestors.length > 0) setOpenKeys(ancestors);
  }, [menu, current]);

  const onOpenChange = (keys: string[]) => {
    const latest = keys.find((key) => !openKeys.includes(key));
    setOpenKeys(latest && topGroups.has(latest) ? [latest] : keys);
  };

  return (
    <Menu
      mode="inline"
      theme="dark"
      items={items}
      selectedKeys={[current]}
      openKeys={collapsed ? flyout : openKeys}
      onOpenChange={collapsed ? setFlyout : onOpenChange}
      onClick={({ key }) => navigate(`/${key}`)}
    />
  );
}
