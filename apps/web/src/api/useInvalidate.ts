/** Refetches every cached query of some endpoints (after a change: lists, choices). */
import type { Endpoint } from '@iot/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** Returns a function that invalidates all queries of `endpoints` (any query parameters). */
export function useInvalidate(...endpoints: Endpoint[]): () => Promise<void> {
  const client = useQueryClient();
  const paths = endpoints.map((endpoint) => endpoint.path).join('\n');
  return useCallback(async () => {
    await Promise.all(paths.split('\n').map((path) => client.invalidateQueries({ queryKey: [path] })));
  }, [client, paths]);
}
