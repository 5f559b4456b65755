/**
 * Tab-strip rules (spec §2 "Tab strip"), pure so they can be unit-tested: a tab list is an ordered list
 * of route paths, oldest first.
 */
import { MAX_TABS } from '@iot/contract';

/** Result of closing tabs: the new list and where to navigate (undefined = stay). */
export interface CloseResult {
  tabs: string[];
  navigate?: string;
}

/** Opens a tab for `path`: kept in place when already open, else appended; a ninth drops the oldest. */
export function openTab(tabs: readonly string[], path: string, max = MAX_TABS): string[] {
  if (tabs.includes(path)) return [...tabs];
  const next = [...tabs, path];
  return next.length > max ? next.slice(next.length - max) : next;
}

/**
 * Closes `path`. When it is the active tab, navigation goes to the next tab, else the previous one,
 * else to '/'.
 */
export function closeTab(tabs: readonly string[], path: string, active: string): CloseResult {
  const index = tabs.indexOf(path);
  if (index < 0) return { tabs: [...tabs] };
  const next = tabs.filter((tab) => tab !== path);
  if (path !== active) return { tabs: next };
  return { tabs: next, navigate: next[index] ?? next[index - 1] ?? '/' };
}

/** Keeps only `path` ("close others") and navigates there when it is not the active tab. */
export function closeOthers(tabs: readonly string[], path: string, active: string): CloseResult {
  if (!tabs.includes(path)) return { tabs: [...tabs] };
  return { tabs: [path], navigate: path === active ? undefined : path };
}

/** Closes the tabs left of `path` ("close left"); when the active tab is among them, goes to `path`. */
export function closeLeft(tabs: readonly string[], path: string, active: string): CloseResult {
  const index = tabs.indexOf(path);
  if (index < 0) return { tabs: [...tabs] };
  const next = tabs.slice(index);
  return { tabs: next, navigate: next.includes(active) ? undefined : path };
}

/** Closes the tabs right of `path` ("close right"); when the active tab is among them, goes to `path`. */
export function closeRight(tabs: readonly string[], path: string, active: string): CloseResult {
  const index = tabs.indexOf(path);
  if (index < 0) return { tabs: [...tabs] };
  const next = tabs.slice(0, index + 1);
  return { tabs: next, navigate: next.includes(active) ? undefined : path };
}

/** Closes every tab ("close all") and goes to '/'. */
export function closeAll(): CloseResult {
  return { tabs: [], navigate: '/' };
}
