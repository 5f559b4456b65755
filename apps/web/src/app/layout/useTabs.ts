/**
 * Tab-strip state: one tab per visited layout route, by the pure rules of ../tabs. Visits are recorded
 * where the browser's location changes (history.pushState / replaceState / popstate), not when React
 * draws the new page: menu clicks 0.2 s apart start navigations that React renders only the last of
 * (each waits for its lazy page, the next one replaces it), and a tab per drawn page lost the others
 * (9 fast clicks left 5 tabs). The list lives in a small store outside React, kept in
 * sessionStorage across reloads, emptied at sign-out (clearTabs).
 */
import { findRoute, WEB_BASE_PATH } from '@iot/contract';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { getUsername } from '../../session/session';
import { closeAll, closeLeft, closeOthers, closeRight, closeTab, openTab, type CloseResult } from '../tabs';

const STORAGE_KEY = 'tabs';

function loadTabs(): string[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((path): path is string => typeof path === 'string' && !!findRoute(path)) : [];
  } catch {
    return [];
  }
}

let tabs: string[] | undefined;
const listeners = new Set<() => void>();
const current = (): string[] => {
  tabs ??= loadTabs();
  return tabs;
};

/** Replaces the list, stores it right away (a reload right after navigating keeps the new tab) and tells the strip. */
function setTabs(next: string[]): void {
  tabs = next;
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  for (const listener of listeners) listener();
}

/**
 * The path the browser is on now. Closing decisions use it rather than the last rendered path: right
 * after a tab click the URL has changed before React has drawn the new page, and closing "the active
 * tab" must mean the one the user just chose.
 */
function livePath(): string {
  const path = window.location.pathname;
  return path.startsWith(WEB_BASE_PATH) ? path.slice(WEB_BASE_PATH.length) || '/' : path;
}

/** Opens a tab for `pathname` when it is a layout route and someone is signed in; other paths leave the list as it is. */
function visit(pathname: string): void {
  if (findRoute(pathname)?.frame !== 'layout' || !getUsername()) return;
  const list = current();
  if (!list.includes(pathname)) setTabs(openTab(list, pathname));
}

/** Empties the tab list (sign-out). */
export function clearTabs(): void {
  sessionStorage.removeItem(STORAGE_KEY);
  tabs = [];
  for (const listener of listeners) listener();
}

let watching = false;
/** Records a visit at every change of the browser's location, once per page load. */
function watchHistory(): void {
  if (watching) return;
  watching = true;
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = window.history[method].bind(window.history);
    window.history[method] = (...args: Parameters<History['pushState']>) => {
      original(...args);
      visit(livePath());
    };
  }
  window.addEventListener('popstate', () => visit(livePath()));
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Tabs of the current browser tab. */
export function useTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  watchHistory();
  const list = useSyncExternalStore(subscribe, current);
  // The first page of a load (no history change) and any path the watch missed.
  useEffect(() => visit(pathname), [pathname]);

  const apply = useCallback((result: CloseResult) => {
    setTabs(result.tabs);
    if (result.navigate) navigate(result.navigate);
  }, [navigate]);

  return {
    tabs: list,
    active: pathname,
    close: (path: string) => apply(closeTab(list, path, livePath())),
    closeOthers: (path: string) => apply(closeOthers(list, path, livePath())),
    closeLeft: (path: string) => apply(closeLeft(list, path, livePath())),
    closeRight: (path: string) => apply(closeRight(list, path, livePath())),
    closeAll: () => apply(closeAll()),
  };
}
