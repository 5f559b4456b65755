/**
 * Emitting domain events (docs/events.md "Emitting"): `emit(tx, name, payload)` in the transaction
 * that makes the change. Delivery follows PostgreSQL's NOTIFY rule: only once the transaction
 * commits, never when it rolls back (a savepoint rolled back drops its events too).
 *
 * In a transaction opened by the database handle (db/client.ts wraps every top-level transaction
 * with `inTransactionWithEvents`), emit() costs nothing at once: the transaction's events are sent
 * in one statement just before it commits (one round trip per transaction, several events per
 * notification up to NOTIFY_BYTES), and handed to this handle's subscribers right after the commit,
 * before the caller goes on. On any other executor (the owner pool in autocommit, a nested
 * transaction) emit() runs that statement at once; subscribers of this handle then get the events
 * through the listener, like every other instance.
 */
import { type DomainEvent, EVENT_ID_LIST_MAX, type EventMap, type EventName } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '../db/client.js';
import { EVENT_CHANNEL, type Envelope, type EventBus } from './bus.js';

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; this leaves room. */
export const NOTIFY_BYTES = 7900;

interface Pending {
  events: DomainEvent[];
  open: boolean;
}

/** Transactions opened by a database handle, with the events raised in them so far. */
const pendingByTransaction = new WeakMap<object, Pending>();

/**
 * Raises `name` with `payload` in `executor`'s transaction (see the module comment). Rejects when
 * the statement fails (the transaction then fails too) or when one event is larger than NOTIFY_BYTES.
 */
export async function emit<K extends EventName>(executor: Executor, name: K, payload: EventMap[K]): Promise<void> {
  await emitAll(executor, [{ name, payload } as DomainEvent]);
}

/** Raises several events at once (one statement at most); see emit(). */
export async function emitAll(executor: Executor, events: readonly DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const pending = pendingByTransaction.get(executor);
  if (pending?.open) {
    pending.events.push(...events);
    return;
  }
  await notify(executor, '', 0, events);
}

/** Events listing ids: lock.heartbeat, lock.uplink (lockIds), airSwitch.reading (airSwitchIds). */
type IdListEvent = 'lock.heartbeat' | 'lock.uplink' | 'airSwitch.reading';

/**
 * The `name` events of `rows` (a device id and its data centre each): one per data centre, split
 * at EVENT_ID_LIST_MAX ids; each id once.
 */
export function idListEvents(name: IdListEvent, rows: Iterable<{ tenantId: number; id: number }>): DomainEvent[] {
  const byTenant = new Map<number, Set<number>>();
  for (const row of rows) {
    const ids = byTenant.get(row.tenantId) ?? new Set();
    ids.add(row.id);
    byTenant.set(row.tenantId, ids);
  }
  const events: DomainEvent[] = [];
  for (const [tenantId, set] of byTenant) {
    const ids = [...set];
    for (let start = 0; start < ids.length; start += EVENT_ID_LIST_MAX) {
      const part = ids.slice(start, start + EVENT_ID_LIST_MAX);
      events.push(name === 'airSwitch.reading' ? { name, payload: { tenantId, airSwitchIds: part } } : { name, payload: { tenantId, lockIds: part } });
    }
  }
  return events;
}

/** The notification texts carrying `events` (split at NOTIFY_BYTES; order kept). */
export function envelopes(origin: string, local: 0 | 1, events: readonly DomainEvent[]): string[] {
  const head = JSON.stringify({ o: origin, l: local, e: [] } satisfies Envelope).slice(0, -2);
  const texts: string[] = [];
  let parts: string[] = [];
  let bytes = head.length + 2;
  for (const event of events) {
    const part = JSON.stringify([event.name, event.payload]);
    const size = Buffer.byteLength(part) + 1;
    if (head.length + 2 + size > NOTIFY_BYTES) throw new Error(`event ${event.name} is larger than a notification (${size} bytes)`);
    if (bytes + size > NOTIFY_BYTES) {
      texts.push(`${head}${parts.join(',')}]}`);
      parts = [];
      bytes = head.length + 2;
    }
    parts.push(part);
    bytes += size;
  }
  if (parts.length > 0) texts.push(`${head}${parts.join(',')}]}`);
  return texts;
}

async function notify(executor: Executor, origin: string, local: 0 | 1, events: readonly DomainEvent[]): Promise<void> {
  const texts = envelopes(origin, local, events);
  await executor.execute(sql`select pg_notify(${EVENT_CHANNEL}, text) from unnest(${sql.param(texts)}::text[]) as text`);
}

/**
 * Runs `body` as the transaction `tx` of a handle whose bus is `bus`: events emitted in it are
 * notified in one statement before it commits, and `deliver` is returned for the caller to run once
 * the commit has succeeded (db/client.ts). `body` throwing sends nothing.
 */
export async function inTransactionWithEvents<T>(tx: Tx, bus: EventBus, body: (tx: Tx) => Promise<T>): Promise<{ value: T; deliver(): void }> {
  const pending: Pending = { events: [], open: true };
  pendingByTransaction.set(tx, pending);
  try {
    const value = await body(tx);
    pending.open = false;
    const events = pending.events;
    if (events.length > 0) await notify(tx, bus.origin, 1, events);
    return { value, deliver: () => bus.deliverLocal(events) };
  } finally {
    pending.open = false;
  }
}
