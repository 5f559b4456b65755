/** Local sign-out: clears the stored session, cached server data and tabs, then goes to /login. */
import { clearTabs } from './layout/useTabs';
import { clearSession } from './session';
import { navigateTo } from './navigation';
import { queryClient } from './queryClient';

/** Clears session, query cache and tab strip, then navigates to /login. */
export function signOutLocally(): void {
  clearSession();
  clearTabs();
  queryClient.clear();
  navigateTo('/login');
}

