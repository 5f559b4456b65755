/**
 * Live events -> react-query refreshes (invalidate.ts, targets.ts): one refresh per burst, telemetry
 * at most every 5 s, per-lock queries only for their lock, pickers never; and every target is an
 * endpoint whose page may receive the event (the contract's EVENT_AUDIENCE).
 */
import {
  accessKeys, alertEndpoints, EVENT_AUDIENCE, type EventName, heartbeatLogEndpoints, lockEndpoints, lockInformationEndpoints,
} from '@iot/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiQueryKey } from '../api/useApiQuery';
import { createInvalidator } from './invalidate';
import { LIVE_TARGETS } from './targets';

describe('live invalidations', () => {
  let client: QueryClient;
  let fetched: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } } });
    fetched = [];
  });
  afterEach(() => {
    client.clear();
    vi.useRealTimers();
  });

  /** An active query of `key` (as a mounted page holds it) whose fetches are recorded; `data` is what it answers. */
  async function watch(key: readonly unknown[], data: unknown = {}, meta?: Record<string, unknown>) {
    const observer = new QueryObserver(client, { queryKey: key, queryFn: async () => { fetched.push(JSON.stringify(key)); return data; }, meta });
    observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().isSuccess).toBe(true);
    fetched.length = 0;
  }

  it('refreshes a list once per burst of alarms, within a second', async () => {
    const invalidator = createInvalidator(client);
    await watch(apiQueryKey(alertEndpoints.list, { current: 1, size: 10 }));
    for (let lock = 1; lock <= 5; lock++) invalidator.receive('lock.alarm', { tenantId: 100, lockId: lock, alertId: lock, kind: 'tamper', cleared: false });
    await vi.advanceTimersByTimeAsync(150);
    expect(fetched).toEqual([JSON.stringify(apiQueryKey(alertEndpoints.list, { current: 1, size: 10 }))]);
    invalidator.receive('lock.alarm', { tenantId: 100, lockId: 6, alertId: 6, kind: 'tamper', cleared: false });
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetched).toHaveLength(2);
  });

  it('refreshes a telemetry feed at most every 5 s while heartbeats keep coming', async () => {
    const invalidator = createInvalidator(client);
    await watch(apiQueryKey(heartbeatLogEndpoints.list, null));
    for (let second = 0; second < 10; second++) {
      invalidator.receive('lock.heartbeat', { tenantId: 100, lockIds: [second + 1] });
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(fetched.length).toBeGreaterThanOrEqual(2);
    expect(fetched.length).toBeLessThanOrEqual(3);
  });

  it('refreshes the device page only for its own lock, and never a picker', async () => {
    const invalidator = createInvalidator(client);
    await watch(apiQueryKey(lockInformationEndpoints.information, { imei: '861234500000002' }), { lock: { id: 2, imei: '861234500000002' } });
    await watch(apiQueryKey(lockEndpoints.list, { keyword: 'a' }), { records: [] }, { live: false });
    invalidator.receive('lock.presence', { tenantId: 100, lockId: 3, presence: 'online' });
    await vi.advanceTimersByTimeAsync(1500);
    expect(fetched).toEqual([]);
    invalidator.receive('lock.heartbeat', { tenantId: 100, lockIds: [1, 2] });
    await vi.advanceTimersByTimeAsync(200);
    expect(fetched).toEqual([JSON.stringify(apiQueryKey(lockInformationEndpoints.information, { imei: '861234500000002' }))]);
  });

  it('refreshes everything on reset', async () => {
    const invalidator = createInvalidator(client);
    await watch(['anything', null]);
    invalidator.refreshAll();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetched).toEqual([JSON.stringify(['anything', null])]);
  });

  it('targets only endpoints that the event\'s audience may read', () => {
    const wrong = Object.entries(LIVE_TARGETS).flatMap(([name, targets]) => (targets ?? []).filter((target) => {
      const keys = accessKeys(target.endpoint.access);
      return keys.length > 0 && !keys.some((key) => EVENT_AUDIENCE[name as EventName].includes(key));
    }).map((target) => `${name} -> ${target.endpoint.path}`));
    expect(wrong).toEqual([]);
  });
});
