/**
 * react-query over a contract endpoint. The first load of a key shows the loading overlay; refetches
 * of data already on screen (polling) run in the background without it.
 */
import type { Endpoint, QueryOf, ResponseOf } from '@iot/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './client';

export interface ApiQueryOptions {
  /** Poll every this many ms (background, no overlay). */
  refetchInterval?: number;
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
  return useQuery<ResponseOf<E>>({
    queryKey,
    queryFn: ({ signal }) => call(endpoint, { query, signal, background: client.getQueryData(queryKey) !== undefined }),
    refetchInterval: options.refetchInterval,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
    enabled: options.enabled,
  });
}
