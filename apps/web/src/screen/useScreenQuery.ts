/**
 * The big screen's reads: background calls without the console's loading overlay or error
 * toasts. Refreshed by the live stream's events (live/targets.ts) while it is up, for `live` queries
 * (one data centre: the stream carries no other's events); polled every `intervalMs` otherwise. A
 * failed read leaves the last figures on screen and marks the query as failed; polling goes on, so
 * the screen picks up by itself once the server is back (after a restart).
 */
import type { Endpoint, QueryOf, ResponseOf } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { useLiveState } from '../live/LiveConnection';
import { LIVE_PATHS } from '../live/livePaths';

/** Reads `endpoint` (see above); `query` may be a function read at each call (e.g. "the last hour"). */
export function useScreenQuery<E extends Endpoint>(endpoint: E, query: QueryOf<E> | (() => QueryOf<E>), key: readonly unknown[], intervalMs: number, live: boolean) {
  const refreshedByEvents = useLiveState() === 'live' && live && LIVE_PATHS.has(endpoint.path);
  return useQuery<ResponseOf<E>>({
    queryKey: ['screen', endpoint.path, ...key],
    queryFn: ({ signal }) => call(endpoint, { query: typeof query === 'function' ? (query as () => QueryOf<E>)() : query, signal, background: true, quiet: true }),
    refetchInterval: refreshedByEvents ? false : intervalMs,
    refetchIntervalInBackground: true,
    retry: false,
  });
}
