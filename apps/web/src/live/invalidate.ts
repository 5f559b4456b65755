/**
 * Turns live events into react-query refreshes (targets.ts): each target endpoint's queries are
 * invalidated once per burst (DEBOUNCE_MS), at most once per gap (TELEMETRY_GAP_MS for telemetry,
 * STATE_GAP_MS otherwise); a per-lock endpoint only for the locks the events touched. Invalidating
 * refetches the queries on screen in the background (keeping what they show) and marks the others
 * stale. Queries created with `live: false` (pickers, useApiQuery) are left alone. A snapshot answer
 * (the analysis figures) that comes back unchanged is asked again a few times, until the server's
 * snapshot has caught up with the event.
 * Query keys: `[path, query]` (api/useApiQuery.ts) or `['screen', path, ...]` (the big screen).
 */
import { type EventName, touchedDevices } from '@iot/contract';
import type { Query, QueryClient } from '@tanstack/react-query';
import { DEBOUNCE_MS, LIVE_TARGETS, SNAPSHOT_RETRIES, SNAPSHOT_RETRY_MS, STATE_GAP_MS, TELEMETRY_EVENTS, TELEMETRY_GAP_MS } from './targets';

/** Endpoint path -> how to read the snapshot time of its answers (targets with `snapshot`). */
const snapshots = new Map(Object.values(LIVE_TARGETS).flatMap((targets) => targets.flatMap((target) => (target.snapshot ? [[target.endpoint.path, target.snapshot] as const] : []))));

interface Pending {
  due: number;
  /** Locks whose queries to refresh; undefined: every query of the endpoint. */
  lockIds: Set<number> | undefined;
}

/** The endpoint path a query key belongs to. */
export function pathOf(key: readonly unknown[]): unknown {
  return key[0] === 'screen' ? key[1] : key[0];
}

/** The lock of an IMEI, as the cached answers know it (device page, lock and log lists). */
function lockOfImei(client: QueryClient, imei: string): number | undefined {
  for (const query of client.getQueryCache().getAll()) {
    const data = query.state.data as { lock?: { id: number; imei: string }; records?: { id?: number; lockId?: number; imei?: string }[] } | undefined;
    if (data?.lock?.imei === imei) return data.lock.id;
    const row = Array.isArray(data?.records) ? data.records.find((record) => record.imei === imei) : undefined;
    if (row) return row.lockId ?? row.id;
  }
  return undefined;
}

/** True when `query` (of a per-lock endpoint) is about one of `lockIds`; unknown locks count as yes. */
function concerns(client: QueryClient, query: Query, lockIds: ReadonlySet<number>): boolean {
  const params = query.queryKey[1] as { lockId?: unknown; imei?: unknown } | null | undefined;
  const lockId = params?.lockId !== undefined ? Number(params.lockId) : typeof params?.imei === 'string' ? lockOfImei(client, params.imei) : undefined;
  return lockId === undefined || lockIds.has(lockId);
}

/** The invalidator of `client`; `now` and timers are the browser's (tests use fake timers). */
export function createInvalidator(client: QueryClient, now: () => number = Date.now) {
  const pending = new Map<string, Pending>();
  const lastRun = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  function run(path: string, lockIds: Set<number> | undefined, retries = 0): void {
    const matches = (query: Query) => pathOf(query.queryKey) === path && query.meta?.live !== false && (!lockIds || concerns(client, query, lockIds));
    const found = client.getQueryCache().findAll({ predicate: matches });
    if (found.length === 0) return; // nothing cached: the gap starts with the next refresh that does something
    lastRun.set(path, now());
    const asOf = snapshots.get(path);
    const before = asOf ? new Map(found.map((query) => [query.queryHash, asOf(query.state.data)])) : undefined;
    void client.invalidateQueries({ predicate: matches }).then(() => {
      if (!asOf || !before || retries >= SNAPSHOT_RETRIES) return;
      const unmoved = client.getQueryCache().findAll({ predicate: matches, type: 'active' }).some((query) => before.get(query.queryHash) === asOf(query.state.data));
      if (unmoved) setTimeout(() => run(path, lockIds, retries + 1), SNAPSHOT_RETRY_MS);
    });
  }

  function flush(): void {
    timer = undefined;
    const at = now();
    for (const [path, entry] of [...pending]) {
      if (entry.due > at) continue;
      pending.delete(path);
      run(path, entry.lockIds);
    }
    schedule();
  }

  function schedule(): void {
    if (timer !== undefined || pending.size === 0) return;
    const due = Math.min(...[...pending.values()].map((entry) => entry.due));
    timer = setTimeout(flush, Math.max(0, due - now()));
  }

  return {
    /** One message of the stream (the event's payload, or several merged). */
    receive(name: EventName, data: object): void {
      const gap = TELEMETRY_EVENTS.has(name) ? TELEMETRY_GAP_MS : STATE_GAP_MS;
      const touched = touchedDevices(data).lockIds;
      for (const target of LIVE_TARGETS[name] ?? []) {
        const path = target.endpoint.path;
        const due = Math.max(now() + DEBOUNCE_MS, (lastRun.get(path) ?? Number.NEGATIVE_INFINITY) + gap);
        const entry = pending.get(path);
        const lockIds = target.perLock && touched.length > 0 ? new Set(touched) : undefined;
        if (!entry) {
          pending.set(path, { due, lockIds });
        } else {
          entry.due = Math.min(entry.due, due);
          if (!entry.lockIds || !lockIds) entry.lockIds = undefined;
          else for (const id of lockIds) entry.lockIds.add(id);
        }
      }
      if (timer !== undefined) {
        clearTimeout(timer);
        timer = undefined;
      }
      schedule();
    },
    /** Events may have been missed (the stream's `reset`): refresh everything. */
    refreshAll(): void {
      pending.clear();
      void client.invalidateQueries({ predicate: (query) => query.meta?.live !== false });
    },
    /** Drops what is pending (sign-out, another data centre). */
    clear(): void {
      pending.clear();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

export type Invalidator = ReturnType<typeof createInvalidator>;
