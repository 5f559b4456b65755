/**
 * The first of the entry's modules to run (main.tsx imports it first): with a session stored and an
 * address other than the sign-in page, the console's chunk (antd and the console frame, ~280 KiB
 * Brotli, the largest file of a signed-in first load) and the opened page's chunks start downloading
 * now, while the rest of the entry (React, the router, i18next, the contract's sign-in schemas) is still
 * being evaluated, instead of after it (bench/lighthouse.ts: those requests went out 0.8 s after the
 * entry had arrived). app/router.tsx preloadConsole asks for the same modules later; the browser fetches
 * each once. It imports nothing evaluated but the session's key names and the page loaders: whatever it
 * imported would be evaluated before it.
 */
import type { PagePath } from '@iot/contract';
import { PAGE_LOADERS } from '../pages/loaders';
import { SESSION_KEYS } from '../session/storageKeys';

/** The console's base path and the sign-in page's address: WEB_BASE_PATH and LOGIN_ROUTE (consoleEarly.test.ts checks them). */
export const BASE_PATH = '/api';
export const SIGN_IN_ADDRESS = '/api/login';

/**
 * The console page to load ahead when a username is stored (session/session.ts getUsername: signed in)
 * and `pathname` (the address's path, /api included) is not the sign-in page: its route path when it has
 * a page, `'frame'` for other console addresses (the frame still loads), undefined otherwise.
 * `storage` is read inside: a blocked localStorage throws.
 */
export function pageToLoad(pathname: string, storage: () => Pick<Storage, 'getItem'>): PagePath | 'frame' | undefined {
  try {
    if (pathname === SIGN_IN_ADDRESS || storage().getItem(SESSION_KEYS.username) === null) return undefined;
  } catch {
    return undefined; // storage blocked: session.ts reads nothing either
  }
  const path = pathname.slice(BASE_PATH.length);
  return Object.hasOwn(PAGE_LOADERS, path) ? (path as PagePath) : 'frame';
}

const page = typeof window === 'undefined' ? undefined : pageToLoad(window.location.pathname, () => window.localStorage);
if (page) {
  void import('./Console').catch(() => undefined); // a failure shows when the console is rendered
  if (page !== 'frame') void PAGE_LOADERS[page]().catch(() => undefined);
}
