/**
 * The role editor's authority tree, built from the contract's MENU: node keys are authority keys;
 * entries without a key (the 门锁管理 `lockManage` and 操作日志 `operateLog` sub-groups) get a
 * structural key `menu:<index>` and are never stored.
 *
 * Group keys (docs/authorities.md): a group key (LOOK_RULE, LOG_MANAGEMENT, ...) shows the group
 * heading but grants no page. The Tree runs with checkStrictly=false, so its state is the set of
 * checked pages (leaves) and antd derives checked / half-checked parents from it. When saving, a role
 * gets every page checked plus the key of every group with at least one checked page (fully or
 * partly checked), so the stored role names its menu parents explicitly — as the original console
 * stored them — while granting nothing more than its pages. A group key without any page of its group
 * has no checkbox state of its own and is dropped on the next save of that role.
 *
 * Action authorities (contract ACTION_AUTHORITIES, e.g. VOUCHER_PASSWORD_REVEAL) are children of their
 * page. Such a page's node gets a first child `page:<KEY>` (titled like the page) standing for the page
 * itself, so the page can be granted without its actions; an action alone never grants its page.
 */
import {
  ACTION_AUTHORITIES, AUTHORITIES, type AuthorityReach, authorityReach, flattenMenu, isAuthority, MENU, type Authority, type Language, type MenuEntry,
} from '@iot/contract';
import type { TreeDataNode } from 'antd';
import type { Key } from 'react';

/** Tree key of a menu entry. */
const nodeKey = (entry: MenuEntry) => entry.key ?? `menu:${entry.index}`;

const PAGE_PREFIX = 'page:';
/** Action authorities of a page key. */
const actionsOf = (page: string | undefined) => ACTION_AUTHORITIES.filter((action) => action.page === page);
const ACTION_KEYS = new Set<string>(ACTION_AUTHORITIES.map((action) => action.key));
/** True for an action authority's tree key (not a page). */
export const isActionKey = (key: string) => ACTION_KEYS.has(key);
/** Tree key -> authority key (`page:X` -> X). */
const authorityOf = (key: string) => (key.startsWith(PAGE_PREFIX) ? key.slice(PAGE_PREFIX.length) : key);

/** Children of a page with actions: the page itself, then its actions. */
function actionChildren(entry: MenuEntry, language: Language): TreeDataNode[] | undefined {
  const actions = actionsOf(entry.key);
  if (actions.length === 0) return undefined;
  return [{ key: `${PAGE_PREFIX}${entry.key}`, title: entry.title[language] }, ...actions.map((action) => ({ key: action.key, title: action.title[language] }))];
}

/** Tree data of the whole menu, titles in `language`. */
export function authorityTree(language: Language, entries: readonly MenuEntry[] = MENU): TreeDataNode[] {
  return entries.map((entry) => ({
    key: nodeKey(entry),
    title: entry.title[language],
    children: entry.subs.length > 0 ? authorityTree(language, entry.subs) : actionChildren(entry, language),
  }));
}

const PAGES = flattenMenu().filter((entry) => entry.subs.length === 0 && entry.key !== undefined);

/**
 * The Tree's checked state of a role: the pages (leaf keys; `page:X` for a page with actions) and the
 * actions among its authorities. Accepts tree keys too.
 */
export function checkedPages(authorities: readonly string[]): string[] {
  const held = new Set(authorities.map(authorityOf));
  const pages = PAGES.filter((entry) => held.has(entry.key as string))
    .map((entry) => (actionsOf(entry.key).length > 0 ? `${PAGE_PREFIX}${entry.key}` : (entry.key as string)));
  return [...pages, ...ACTION_AUTHORITIES.filter((action) => held.has(action.key)).map((action) => action.key)];
}

/** Leaf authority keys under an entry. */
function pagesUnder(entry: MenuEntry): string[] {
  return entry.subs.length === 0 ? (entry.key ? [entry.key] : []) : entry.subs.flatMap(pagesUnder);
}

/** The authorities to store for checked tree keys: the checked pages and the keys of their groups. */
export function authoritiesOf(checkedKeys: readonly Key[]): Authority[] {
  const checked = new Set(checkedKeys.map((key) => authorityOf(String(key))));
  const keep = new Set<string>([...checked].filter((key) => ACTION_KEYS.has(key)));
  for (const entry of flattenMenu()) {
    if (entry.key && pagesUnder(entry).some((page) => checked.has(page))) keep.add(entry.key);
  }
  return AUTHORITIES.filter((key) => keep.has(key));
}

/** What the tree node `key` opens (pages, changes, shared lookups); undefined for a structural node. */
export function reachOf(key: Key): AuthorityReach | undefined {
  const authority = authorityOf(String(key));
  return isAuthority(authority) ? authorityReach(authority) : undefined;
}
