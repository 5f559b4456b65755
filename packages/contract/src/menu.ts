/**
 * The sidebar menu (spec §2 "Sidebar menu", §3 "Menu entry"), derived from the page tree (pages.ts),
 * with an English title for every entry. The web builds its sidebar from it; filtering rules:
 * - administrators (type 0) see every entry;
 * - others see a leaf only when its key is in their authorities;
 * - a group is shown when its own key or any descendant is permitted (spec §6), and then shows only
 *   its permitted descendants. A group's key does not grant its children's pages.
 * - a group without a key is shown only through its children.
 */
import type { Authority } from './authorities.js';
import type { LocalizedText } from './i18n.js';
import { PAGE_TREE, type PageNode } from './pages.js';

/** A menu entry; `index` is the route path without its leading slash. */
export interface MenuEntry {
  index: string;
  key?: Authority;
  icon: string;
  title: LocalizedText;
  /** Spec's status: 1 for the user-management group, 0 otherwise; -1 when hidden for the user. */
  status: number;
  subs: MenuEntry[];
}

/** The menu entries of tree nodes: hidden pages left out (a leaf with only hidden pages under it stays a leaf). */
function menuOf(nodes: readonly PageNode[]): MenuEntry[] {
  return nodes.filter((node) => !node.hidden).map((node) => ({
    index: node.index, key: node.key as Authority | undefined, icon: node.icon ?? 'file', title: node.title,
    status: node.status ?? 0, subs: menuOf(node.subs ?? []),
  }));
}

/** The sidebar menu, derived from the page tree (pages.ts). */
export const MENU: readonly MenuEntry[] = menuOf(PAGE_TREE);

/** Every entry of a tree, depth first (parents before children). */
export function flattenMenu(entries: readonly MenuEntry[] = MENU): MenuEntry[] {
  return entries.flatMap((entry) => [entry, ...flattenMenu(entry.subs)]);
}

/**
 * The menu a user sees: hidden entries removed (spec §4: status -1 means hidden).
 * @param isAdmin type 0 accounts see everything
 * @param authorities the account's authority keys
 */
export function visibleMenu(isAdmin: boolean, authorities: readonly string[], entries: readonly MenuEntry[] = MENU): MenuEntry[] {
  if (isAdmin) return entries.map((entry) => ({ ...entry, subs: visibleMenu(true, authorities, entry.subs) }));
  const granted = new Set(authorities);
  const result: MenuEntry[] = [];
  for (const entry of entries) {
    const subs = visibleMenu(false, authorities, entry.subs);
    const own = entry.key !== undefined && granted.has(entry.key);
    if (own || subs.length > 0) {
      result.push({ ...entry, subs });
    }
  }
  return result;
}

/**
 * Root redirect target of a non-administrator (spec §2): the menu entry of the first item of their
 * authorities list that names a page; failing that, the first page they may see.
 */
export function firstPermittedPath(isAdmin: boolean, authorities: readonly string[]): string | undefined {
  const leaves = flattenMenu(visibleMenu(isAdmin, authorities)).filter((entry) => entry.subs.length === 0);
  const byAuthority = authorities.map((key) => leaves.find((entry) => entry.key === key)).find(Boolean);
  const target = byAuthority ?? leaves[0];
  return target ? `/${target.index}` : undefined;
}
