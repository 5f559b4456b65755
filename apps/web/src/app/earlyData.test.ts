import { analysisEndpoints, type Endpoint, lockEndpoints } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { EARLY_DATA } from './earlyData';

/** The URL the client builds for `endpoint` and `query` (api/client.ts queryString: undefined values skipped). */
const urlOf = (endpoint: Endpoint, query: Record<string, string | number | undefined>) =>
  `${endpoint.path}?${new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined).map(([key, value]) => [key, String(value)]))}`;

describe('early data of a page', () => {
  it('asks for what the home page and the lock list ask for first, as token GETs', () => {
    // HomePage: 7 days of the tenant; ServerTable: the default filters, then current and size.
    expect(EARLY_DATA['/homepage']).toEqual([urlOf(analysisEndpoints.analysis, { days: '7', scope: 'tenant' })]);
    expect(EARLY_DATA['/lockInfo']).toEqual([urlOf(lockEndpoints.list, { sortField: undefined, sortOrder: undefined, current: 1, size: 10 })]);
    for (const endpoint of [analysisEndpoints.analysis, lockEndpoints.list]) expect([endpoint.method, endpoint.kind]).toEqual(['GET', 'token']);
  });
});
