/**
 * react-query over a contract endpoint. The first load of a key shows the loading overlay; refetches
 * of data already on screen (polling, live updates) run in the background without it. While the live
 * stream is up, an endpoint it refreshes (live/targets.ts) does not poll: `refetchInterval` is then
 * only the fallback for a stream that is down.
 */
import type { Endpoint, QueryOf, ResponseOf } from '@iot/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveState } from '../live/LiveConnection';
import { LIVE_PATHS } from '../live/livePaths';
import { call, queryString } from './client';
import { takeEarlyData } from './early';

/** How long data handed over from an early request counts as fresh, ms: the page does not ask again as it mounts. */
const EARLY_FRESH_MS = 5_000;

export interface ApiQueryOptions {
  /** Poll every this many ms (background, no overlay); while the live stream is up, only if no event refreshes the endpoint. */
  refetchInterval?: number;
  /** False: live events never refresh this query (pickers, whose rows must not move under the pointer). */
  live?: false;
  /** Keep showing the previous key's data while a new key loads (paging, filters). */
  keepPrevious?: boolean;
  /** Fetch only when true (default true). */
  enabled?: boolean;
}

/** Query key of an endpoint call. */
export function apiQueryKey(endpoint: Endpoint, query?: unknown): readonly unknown[] {
  return [endpoint.path, query ?? null];
}

/** Fetches `endpoint` with `query` through the HTTP client. */
export function useApiQuery<E extends Endpoint>(endpoint: E, query?: QueryOf<E>, options: ApiQueryOptions = {}) {
  const client = useQueryClient();
  const queryKey = apiQueryKey(endpoint, query);
  const live = useLiveState() === 'live' && options.live !== false && LIVE_PATHS.has(endpoint.path);
  return useQuery<ResponseOf<E>>({
    queryKey,
    // Asked only when the key enters the cache: the page's first data may already be here (api/early.ts).
    initialData: () => (endpoint.method === 'GET' && endpoint.kind === 'token'
      ? takeEarlyData(`${endpoint.path}${queryString(query as object | undefined)}`)?.data as ResponseOf<E> | undefined : undefined),
    staleTime: (current) => (current.state.dataUpdateCount === 0 && current.state.data !== undefined ? EARLY_FRESH_MS : 0),
    queryFn: ({ signal }) => call(endpoint, { query, signal, background: client.getQueryData(queryKey) !== undefined }),
    refetchInterval: live ? false : options.refetchInterval,
    meta: options.live === false ? { live: false } : undefined,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
    enabled: options.enabled,
  });
}
