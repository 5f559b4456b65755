/** Tab-strip state: opens a tab per visited layout route, applies the pure rules of ../tabs. */
import { findRoute, WEB_BASE_PATH } from '@iot/contract';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
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

/** Stores the list right away (a reload right after navigating keeps the new tab); returns it. */
function persist(tabs: string[]): string[] {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(tabs));
  return tabs;
}

/** Opens a tab for a layout route; other paths leave the list as it is. */
function visit(tabs: string[], pathname: string): string[] {
  return findRoute(pathname)?.frame === 'layout' ? openTab(tabs, pathname) : tabs;
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

/** Tabs of the current browser tab (kept in sessionStorage across reloads). */
export function useTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [tabs, setTabs] = useState<string[]>(() => persist(visit(loadTabs(), pathname)));

  useEffect(() => {
    setTabs((current) => persist(visit(current, pathname)));
  }, [pathname]);

  const apply = useCallback((result: CloseResult) => {
    setTabs(persist(result.tabs));
    if (result.navigate) navigate(result.navigate);
  }, [navigate]);

  return {
    tabs,
    active: pathname,
    close: (path: string) => apply(closeTab(tabs, path, livePath())),
    closeOthers: (path: string) => apply(closeOthers(tabs, path, livePath())),
    closeLeft: (path: string) => apply(closeLeft(tabs, path, livePath())),
    closeRight: (path: string) => apply(closeRight(tabs, path, livePath())),
    closeAll: () => apply(closeAll()),
  };
}
