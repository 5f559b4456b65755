/**
 * The big screen's polling (issue #14): background calls without the console's loading overlay or error
 * toasts. A failed poll leaves the last figures on screen and marks the query as failed; the interval
 * keeps running, so the screen picks up by itself once the server is back (after a restart).
 */
import type { Endpoint, QueryOf, ResponseOf } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';

/** Polls `endpoint` every `intervalMs`; `query` may be a function read at each call (e.g. "the last hour"). */
export function useScreenQuery<E extends Endpoint>(endpoint: E, query: QueryOf<E> | (() => QueryOf<E>), key: readonly unknown[], intervalMs: number) {
  return useQuery<ResponseOf<E>>({
    queryKey: ['screen', endpoint.path, ...key],
    queryFn: ({ signal }) => call(endpoint, { query: typeof query === 'function' ? (query as () => QueryOf<E>)() : query, signal, background: true, quiet: true }),
    refetchInterval: intervalMs,
    refetchIntervalInBackground: true,
    retry: false,
  });
}
