/**
 * The event bus of one database handle (docs/events.md): in-process subscribers of the domain events
 * of packages/contract/src/events.ts, fed by
 * - local delivery: events emitted in a transaction of this handle, right after it commits (emit.ts),
 *   before the code that ran the transaction goes on (so a change is seen at once on this instance);
 * - the listener (listener.ts): PostgreSQL NOTIFY on one channel, i.e. every other instance's events
 *   (and this instance's events emitted outside a transaction of this handle) once committed.
 * Handlers run synchronously in delivery order; a handler's error (or rejected promise) is logged and
 * never reaches the emitter or the other handlers. Subscribing starts the listener (lazily: a handle
 * nobody subscribes to never opens a listening connection).
 */
import { randomUUID } from 'node:crypto';
import { type DomainEvent, EVENT_SCHEMAS, type EventMap, type EventName, isEventName } from '@iot/contract';

/** The NOTIFY channel of every domain event. */
export const EVENT_CHANNEL = 'iot_events';

/** A handler of one event name. */
export type EventHandler<K extends EventName> = (payload: EventMap[K], event: { name: K; local: boolean }) => void | Promise<void>;

/** What a bus logs with (a subset of pino's API). */
export interface BusLog {
  warn(fields: object, message?: string): void;
}

/** Where notifications come from: PostgreSQL's LISTEN on a dedicated connection, or PGlite's listen(). */
export interface NotificationSource {
  /** Starts listening; `onPayload` gets every notification text, `onResync` every reconnect (notifications may have been lost). */
  start(onPayload: (payload: string) => void, onResync: () => void): Promise<void>;
  close(): Promise<void>;
}

export interface EventBusStats {
  /** Events handed to subscribers: from this instance's commits / from notifications. */
  deliveredLocal: number;
  deliveredRemote: number;
  /** Notifications received (one may carry several events) and those ignored as malformed. */
  notifications: number;
  malformed: number;
  /** Handlers that threw. */
  handlerErrors: number;
  /** Times the listener reconnected (resync handlers ran). */
  resyncs: number;
}

export interface EventBus {
  /** Identifies this handle in notifications, so it skips the echo of what it delivered locally. */
  readonly origin: string;
  /** Subscribes `handler` to `name`; returns the function that unsubscribes. */
  on<K extends EventName>(name: K, handler: EventHandler<K>): () => void;
  /** Subscribes `handler` to every event (e.g. a live stream); returns the function that unsubscribes. */
  onAll(handler: (event: DomainEvent & { local: boolean }) => void | Promise<void>): () => void;
  /**
   * Runs `handler` after the listener reconnected: notifications of the gap may be lost, so a worker
   * sweeps and a cache empties. Returns the function that unsubscribes.
   */
  onResync(handler: () => void): () => void;
  /** Resolves once notifications from other instances are received (the listener is up). */
  ready(): Promise<void>;
  /** Hands events of a committed transaction of this handle to the subscribers (emit.ts). */
  deliverLocal(events: readonly DomainEvent[]): void;
  stats(): EventBusStats;
  /** Stops listening; subscribers get nothing more. */
  close(): Promise<void>;
}

/** The wire form of a notification: origin, whether the origin delivered it locally, the events. */
export interface Envelope {
  o: string;
  l: 0 | 1;
  e: [string, unknown][];
}

/** Creates the bus over `source` (started on the first subscription). */
export function createEventBus(source: NotificationSource, log: BusLog): EventBus {
  const origin = randomUUID();
  const handlers = new Map<string, Set<(payload: never, event: never) => void | Promise<void>>>();
  const allHandlers = new Set<(event: DomainEvent & { local: boolean }) => void | Promise<void>>();
  const resyncHandlers = new Set<() => void>();
  const stats: EventBusStats = { deliveredLocal: 0, deliveredRemote: 0, notifications: 0, malformed: 0, handlerErrors: 0, resyncs: 0 };
  let started: Promise<void> | undefined;
  let closed = false;

  const failed = (name: string) => (error: unknown) => {
    stats.handlerErrors++;
    log.warn({ event: name, err: error }, 'event handler failed');
  };
  function call(name: string, run: () => void | Promise<void>): void {
    try {
      const result = run();
      if (result && typeof result.then === 'function') result.then(undefined, failed(name));
    } catch (error) {
      failed(name)(error);
    }
  }
  function dispatch(event: DomainEvent, local: boolean): void {
    if (closed) return;
    if (local) stats.deliveredLocal++;
    else stats.deliveredRemote++;
    for (const handler of handlers.get(event.name) ?? []) call(event.name, () => handler(event.payload as never, { name: event.name, local } as never));
    for (const handler of allHandlers) call(event.name, () => handler({ ...event, local } as DomainEvent & { local: boolean }));
  }
  function receive(text: string): void {
    stats.notifications++;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      stats.malformed++;
      return;
    }
    if (envelope.o === origin && envelope.l === 1) return; // delivered at commit already
    for (const [name, payload] of Array.isArray(envelope.e) ? envelope.e : []) {
      const parsed = isEventName(name) ? EVENT_SCHEMAS[name].safeParse(payload) : undefined;
      if (!parsed?.success) {
        stats.malformed++;
        log.warn({ event: String(name) }, 'malformed event notification ignored');
        continue;
      }
      dispatch({ name, payload: parsed.data } as DomainEvent, false);
    }
  }
  function resync(): void {
    stats.resyncs++;
    for (const handler of resyncHandlers) call('resync', handler);
  }
  function start(): Promise<void> {
    started ??= source.start(receive, resync).catch((error: unknown) => {
      started = undefined;
      log.warn({ err: error }, 'event listener could not start; retried at the next subscription');
      throw error;
    });
    return started;
  }
  const subscribe = <H>(set: Set<H>, handler: H) => {
    set.add(handler);
    start().catch(() => undefined);
    return () => { set.delete(handler); };
  };

  return {
    origin,
    on(name, handler) {
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
      }
      return subscribe(set, handler as never);
    },
    onAll: (handler) => subscribe(allHandlers, handler),
    onResync: (handler) => subscribe(resyncHandlers, handler),
    ready: start,
    deliverLocal(events) {
      for (const event of events) dispatch(event, true);
    },
    stats: () => ({ ...stats }),
    async close() {
      closed = true;
      const wasStarted = started;
      started = Promise.resolve();
      if (wasStarted) await wasStarted.catch(() => undefined);
      await source.close();
    },
  };
}
