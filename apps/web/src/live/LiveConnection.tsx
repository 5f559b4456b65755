/**
 * Keeps the live stream open while signed in (mounted by the console, app/Console.tsx, so its pages and the
 * big screen share it): a new stream for another data centre or another sign-in, none when signed out.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { queryClient } from '../api/queryClient';
import { useTenantId, useUsername } from '../hooks/useSession';
import { type LiveState, liveState, startLive, subscribeLive } from './connection';
import type { Invalidator } from './invalidate';

let invalidator: Promise<Invalidator> | undefined;
/** The event -> refresh rules (invalidate.ts with targets.ts and its endpoint tables), loaded once, with the first stream. */
const loadInvalidator = (): Promise<Invalidator> => {
  if (!invalidator) {
    invalidator = import('./invalidate').then(({ createInvalidator }) => createInvalidator(queryClient));
    invalidator.catch(() => { invalidator = undefined; }); // a failed chunk load is asked again on the next try
  }
  return invalidator;
};

/** The stream's state, re-rendering on change. */
export function useLiveState(): LiveState {
  return useSyncExternalStore(subscribeLive, liveState);
}

/** Opens the stream for the signed-in user's data centre; renders nothing. */
export function LiveConnection() {
  const username = useUsername();
  const tenantId = useTenantId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a ticket is for one data centre (read from the session): another one needs a new stream
  useEffect(() => (username ? startLive(loadInvalidator) : undefined), [username, tenantId]);
  return null;
}
