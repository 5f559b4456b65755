/**
 * The lock list's totals, remembered per data centre and filter. At fleet scale the count is most of a
 * filtered page's PostgreSQL CPU (a building's 2,000 locks: 0.3 ms of the 0.43 ms a request; a keyword's
 * trigram match more), and paging through a building counts the same set again for every page.
 *
 * A total is answered again for up to LOCK_TOTAL_REMEMBER_MS, and forgotten at once when a lock of its
 * data centre is added, edited, enabled, disabled, decommissioned or released (`lock.changed`, emitted
 * by the registry after its commit, on this instance or, through NOTIFY, on another one), and every
 * total when the event listener reconnects (notifications may have been lost). Only filters whose set
 * of locks changes by such edits alone are remembered: keyword, model, location parts and registry
 * state. Online and live state, attention kinds, service expiry (time and heartbeats move them), the
 * reported firmware version and group membership are counted on every request.
 */
import { LRUCache } from 'lru-cache';
import type { CountResult } from '../../db/count.js';
import type { EventBus } from '../../events/bus.js';
import type { LockFilter } from './repo.js';

/** How long a remembered total is answered without a change event, ms (a safety net for a lost notification, as every cache of docs/events.md). */
export const LOCK_TOTAL_REMEMBER_MS = 5_000;

/** The filter fields whose matching locks change only with a `lock.changed` event. */
const REGISTRY_FIELDS: ReadonlySet<string> = new Set(['keyword', 'model', 'building', 'floor', 'room', 'state']);

/** Where a list's total is remembered: the memory and the key of one data centre's filter. */
export interface RememberedTotal {
  totals: LockTotals;
  key: string;
}

export class LockTotals {
  private readonly totals = new LRUCache<string, CountResult>({ max: 10_000, ttl: LOCK_TOTAL_REMEMBER_MS, ttlResolution: 0 });
  /** Per data centre, how many changes were seen: part of the key, so a count taken across a change is never answered. */
  private readonly generations = new Map<number, number>();
  private epoch = 0;
  private readonly unsubscribe: (() => void)[];

  /** Subscribes to `events` (lock.changed, reconnects); close() unsubscribes. */
  constructor(events: EventBus) {
    this.unsubscribe = [
      events.on('lock.changed', ({ tenantId }) => { this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1); }),
      events.onResync(() => { this.epoch += 1; this.totals.clear(); }),
    ];
  }

  /**
   * Where the total of `filter` in `tenantId` is remembered, or undefined when the filter is not
   * remembered (a field other than REGISTRY_FIELDS set). Take it before the query runs.
   */
  slot(tenantId: number, filter: LockFilter): RememberedTotal | undefined {
    const fields = Object.entries(filter).filter(([, value]) => value !== undefined && value !== '');
    if (fields.some(([field]) => !REGISTRY_FIELDS.has(field))) return undefined;
    // The validated query's keys come in the schema's order: one filter gives one key.
    return { totals: this, key: `${tenantId}:${this.generations.get(tenantId) ?? 0}:${this.epoch}:${JSON.stringify(Object.fromEntries(fields))}` };
  }

  /** The remembered total of `key`, if any. */
  get(key: string): CountResult | undefined {
    return this.totals.get(key);
  }

  /** Remembers `total` under `key` (a key of an older generation is never asked for again). */
  set(key: string, total: CountResult): void {
    this.totals.set(key, total);
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
  }
}
