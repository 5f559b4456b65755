/**
 * Local sign-out: clears the stored session, cached server data and whatever the shell registered
 * (the tab strip), then goes to /login. The shell registers its own clean-up (onSignOut) instead of
 * being imported here, so the session room does not depend on the shell.
 */
import { queryClient } from '../api/queryClient';
import { navigateTo } from './navigation';
import { clearSession } from './session';

const cleaners = new Set<() => void>();

/** Registers a step of every local sign-out (e.g. emptying the tab strip); returns the unregister function. */
export function onSignOut(cleaner: () => void): () => void {
  cleaners.add(cleaner);
  return () => cleaners.delete(cleaner);
}

/** Clears session, query cache and the registered shell state, then navigates to /login. */
export function signOutLocally(): void {
  clearSession();
  for (const cleaner of cleaners) cleaner();
  queryClient.clear();
  navigateTo('/login');
}
