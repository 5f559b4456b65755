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
 */
import { AUTHORITIES, flattenMenu, MENU, type Authority, type Language, type MenuEntry } from '@iot/contract';
import type { TreeDataNode } from 'antd';
import type { Key } from 'react';

/** Tree key of a menu entry. */
const nodeKey = (entry: MenuEntry) => entry.key ?? `menu:${entry.index}`;

/** Tree data of the whole menu, titles in `language`. */
export function authorityTree(language: Language, entries: readonly MenuEntry[] = MENU): TreeDataNode[] {
  return entries.map((entry) => ({
    key: nodeKey(entry),
    title: entry.title[language],
    children: entry.subs.length > 0 ? authorityTree(language, entry.subs) : undefined,
  }));
}

const PAGES = flattenMenu().filter((entry) => entry.subs.length === 0 && entry.key !== undefined);

/** The Tree's checked state of a role: the pages (leaf keys) among its authorities. */
export function checkedPages(authorities: readonly string[]): Authority[] {
  const held = new Set(authorities);
  return PAGES.filter((entry) => held.has(entry.key as string)).map((entry) => entry.key as Authority);
}

/** Leaf authority keys under an entry. */
function pagesUnder(entry: MenuEntry): string[] {
  return entry.subs.length === 0 ? (entry.key ? [entry.key] : []) : entry.subs.flatMap(pagesUnder);
}

/** The authorities to store for checked tree keys: the checked pages and the keys of their groups. */
export function authoritiesOf(checkedKeys: readonly Key[]): Authority[] {
  const checked = new Set(checkedKeys.map(String));
  const keep = new Set<string>();
  for (const entry of flattenMenu()) {
    if (entry.key && pagesUnder(entry).some((page) => checked.has(page))) keep.add(entry.key);
  }
  return AUTHORITIES.filter((key) => keep.has(key));
}
