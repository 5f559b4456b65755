/**
 * One open live stream (docs/events.md "The live stream"): which events it lets through and how it
 * writes them.
 * - Scope: events of its data centre only (platform-wide events, tenantId null, never), and only
 *   those whose EVENT_AUDIENCE meets its authorities (administrators hold every key); an addressed
 *   event (ADDRESSED_EVENTS, the inbox) only when it names the stream's account.
 * - Coalescing: at most one message per event name per LIVE_COALESCE_MS. The first event of a name
 *   goes out at once; the ones arriving within the window wait for its end and go out as one message
 *   (the latest payload, `merged`: how many, `lockIds` / `airSwitchIds`: every device they touched).
 * - Ids: `<epoch>-<seq>`, where seq is the highest event number below which everything this stream
 *   may receive has been written: an event waiting in a window holds the id back, so resuming from
 *   any id the client saw loses nothing (at worst a merged event is sent twice).
 * - A client that stops reading (LIVE_MAX_BACKLOG_BYTES unsent) is closed with `closed: slow`.
 */
import { ADDRESSED_EVENTS, addressedTo, EVENT_AUDIENCE, type EventName, LIVE_COALESCE_MS, type LiveControlEvent, touchedDevices } from '@iot/contract';
import type { SignIn } from './tickets.js';

/** Unsent bytes beyond which a stream is closed as slow. */
export const LIVE_MAX_BACKLOG_BYTES = 1024 * 1024;

/** One event as the hub numbered it. */
export interface NumberedEvent {
  seq: number;
  name: EventName;
  payload: { tenantId: number | null } & object;
}

/** Where a stream writes: an SSE connection (routes.ts) or a test's recorder. */
export interface StreamSink {
  send(message: { id: string; event: string; data: unknown }): void;
  /** Bytes written but not yet taken by the client. */
  backlog(): number;
  end(): void;
}

interface Pending {
  firstSeq: number;
  count: number;
  latest: object;
  lockIds: Set<number>;
  airSwitchIds: Set<number>;
  timer: NodeJS.Timeout;
}

/** What a stream needs from its surroundings (tests pass a fake clock). */
export interface StreamOptions {
  epoch: string;
  /** The highest event number already accounted for: the hub's latest, or the resumed id. */
  startSeq: number;
  now?: () => number;
  onClose?: () => void;
}

/** One live stream of one sign-in in one data centre. */
export class LiveStream {
  private seen: number;
  private readonly lastSent = new Map<EventName, number>();
  private readonly pending = new Map<EventName, Pending>();
  private closed = false;
  private readonly now: () => number;

  constructor(
    private readonly sink: StreamSink,
    readonly family: string,
    readonly tenantId: number,
    public signIn: SignIn,
    private readonly options: StreamOptions,
  ) {
    this.seen = options.startSeq;
    this.now = options.now ?? Date.now;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /** True when this stream's caller may receive `event`. */
  accepts(event: Pick<NumberedEvent, 'name' | 'payload'>): boolean {
    if (event.payload.tenantId !== this.tenantId) return false;
    if (ADDRESSED_EVENTS.has(event.name)) return addressedTo(event.payload, this.signIn.accountId);
    return EVENT_AUDIENCE[event.name].some((key) => this.signIn.authorities.has(key));
  }

  /** Takes the next event (in the hub's order): writes it, holds it for its window, or skips it. */
  offer(event: NumberedEvent): void {
    if (this.closed || event.seq <= this.seen) return;
    this.seen = event.seq;
    if (!this.accepts(event)) return;
    const held = this.pending.get(event.name);
    const last = this.lastSent.get(event.name);
    const now = this.now();
    if (!held && (last === undefined || now - last >= LIVE_COALESCE_MS)) {
      this.lastSent.set(event.name, now);
      this.write(event.name, event.payload);
      return;
    }
    const devices = touchedDevices(event.payload);
    if (held) {
      held.count += 1;
      held.latest = event.payload;
      for (const id of devices.lockIds) held.lockIds.add(id);
      for (const id of devices.airSwitchIds) held.airSwitchIds.add(id);
      return;
    }
    const timer = setTimeout(() => this.flush(event.name), Math.max(0, (last ?? now) + LIVE_COALESCE_MS - now));
    timer.unref();
    this.pending.set(event.name, {
      firstSeq: event.seq, count: 1, latest: event.payload, lockIds: new Set(devices.lockIds), airSwitchIds: new Set(devices.airSwitchIds), timer,
    });
  }

  /** Sends one of the stream's own messages (ready, reset, closed). */
  control(event: LiveControlEvent, data: object): void {
    if (!this.closed) this.write(event, data);
  }

  /** Ends the stream, saying why first when `reason` is given. */
  close(reason?: 'signedOut' | 'shutdown' | 'slow'): void {
    if (this.closed) return;
    if (reason) this.write('closed', { reason });
    this.closed = true;
    for (const held of this.pending.values()) clearTimeout(held.timer);
    this.pending.clear();
    this.sink.end();
    this.options.onClose?.();
  }

  /** The id a message written now carries (see the module comment). */
  private id(): string {
    let upTo = this.seen;
    for (const held of this.pending.values()) upTo = Math.min(upTo, held.firstSeq - 1);
    return `${this.options.epoch}-${upTo}`;
  }

  private flush(name: EventName): void {
    const held = this.pending.get(name);
    if (!held || this.closed) return;
    this.pending.delete(name);
    this.lastSent.set(name, this.now());
    const data: Record<string, unknown> = { ...held.latest };
    if (held.count > 1) {
      data.merged = held.count;
      if (held.lockIds.size > 0) data.lockIds = [...held.lockIds];
      if (held.airSwitchIds.size > 0) data.airSwitchIds = [...held.airSwitchIds];
    }
    this.write(name, data);
  }

  private write(event: string, data: unknown): void {
    if (this.closed) return;
    if (this.sink.backlog() > LIVE_MAX_BACKLOG_BYTES && event !== 'closed') {
      this.close('slow');
      return;
    }
    this.sink.send({ id: this.id(), event, data });
  }
}
