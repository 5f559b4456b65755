/**
 * The live streams of one server instance (docs/events.md "The live stream"). The hub takes every
 * domain event from the bus (this instance's and, through NOTIFY, every other's), numbers it, keeps
 * the last LIVE_RING_SIZE in a ring for resuming, and offers it to every open stream (stream.ts).
 *
 * Ids are `<epoch>-<seq>`: epoch is random per hub (per run of an instance), so an id from another
 * instance or an earlier run is recognised as unknown and answered with `reset`, as is one older
 * than the ring still holds (`expired`).
 *
 * Sign-ins: session.revoked and account.changed (the account), role.changed (the data
 * centre) make the streams concerned check their sign-in again (`check`); one that is no longer
 * valid is closed (`closed: signedOut`), one whose authorities changed takes the new ones and gets
 * `reset: authorities`. Every stream is also checked every LIVE_CHECK_MS; after the listener
 * reconnected (notifications may have been lost) every stream gets `reset: missed` and is checked.
 */
import { randomBytes } from 'node:crypto';
import type { DomainEvent } from '@iot/contract';
import type { LiveStream, NumberedEvent } from './stream.js';
import type { SignIn } from './tickets.js';

/** Events kept for resuming (at the demo's rate several minutes; a big fleet's heartbeats fewer). */
export const LIVE_RING_SIZE = 10_000;
/** A stream's sign-in is checked again at least this often, ms (also counts as its use). */
export const LIVE_CHECK_MS = 60_000;

/** Where a resumed stream starts. */
export type Resume = { kind: 'fresh'; startSeq: number } | { kind: 'replay'; startSeq: number; events: NumberedEvent[] }
  | { kind: 'reset'; startSeq: number; reason: 'unknown' | 'expired' };

/** Reads a stream's sign-in as it stands now (tickets.ts signInOf); undefined: no longer valid. */
export type SignInCheck = (stream: LiveStream) => Promise<SignIn | undefined>;

/** Events that may end a stream's sign-in or change its authorities. */
const SIGN_IN_EVENTS = new Set<string>(['session.revoked', 'account.changed', 'role.changed']);

/** True when sign-in event `event` concerns `stream`. */
function affects({ name, payload }: NumberedEvent, stream: LiveStream): boolean {
  const { accountId, family } = payload as { accountId?: number; family?: string };
  if (name === 'session.revoked') return stream.signIn.accountId === accountId && (!family || stream.family === family);
  if (name === 'account.changed') return stream.signIn.accountId === accountId;
  return stream.tenantId === payload.tenantId; // role.changed
}

const sameKeys = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((key) => b.has(key));

/** The hub; `check` reads a stream's sign-in again. */
export class LiveHub {
  readonly epoch = randomBytes(4).toString('hex');
  private seq = 0;
  private readonly ring: (NumberedEvent | undefined)[] = new Array(LIVE_RING_SIZE);
  private readonly streams = new Set<LiveStream>();
  private readonly checking = new Map<LiveStream, { again: boolean }>();
  private readonly checkedAt = new Map<LiveStream, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly check: SignInCheck, private readonly log: { warn(fields: object, message: string): void }) {}

  /** Open streams (tests, the bench). */
  get size(): number {
    return this.streams.size;
  }

  /** Takes one event from the bus. */
  receive(event: DomainEvent): void {
    this.seq += 1;
    const numbered: NumberedEvent = { seq: this.seq, name: event.name, payload: event.payload };
    this.ring[this.seq % LIVE_RING_SIZE] = numbered;
    for (const stream of this.streams) stream.offer(numbered);
    if (SIGN_IN_EVENTS.has(event.name)) this.recheck((stream) => affects(numbered, stream));
  }

  /** The latest event number (a request notes it before its sign-in is read: see add). */
  get latestSeq(): number {
    return this.seq;
  }

  /** Where a stream resuming after `lastEventId` starts (see the module comment). */
  resume(lastEventId: string | undefined): Resume {
    if (!lastEventId) return { kind: 'fresh', startSeq: this.seq };
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(lastEventId);
    const after = match ? Number(match[2]) : Number.NaN;
    if (!match || match[1] !== this.epoch || after > this.seq) return { kind: 'reset', startSeq: this.seq, reason: 'unknown' };
    if (after < this.seq - LIVE_RING_SIZE) return { kind: 'reset', startSeq: this.seq, reason: 'expired' };
    const events: NumberedEvent[] = [];
    for (let seq = after + 1; seq <= this.seq; seq++) events.push(this.ring[seq % LIVE_RING_SIZE] as NumberedEvent);
    return { kind: 'replay', startSeq: after, events };
  }

  /**
   * Registers an open stream (it is offered every event from now on). `signInReadAfter`: latestSeq
   * before its sign-in was read; a sign-in event since then (still in the ring) makes it check again.
   */
  add(stream: LiveStream, signInReadAfter: number): void {
    this.streams.add(stream);
    this.checkedAt.set(stream, Date.now());
    for (let seq = Math.max(signInReadAfter + 1, this.seq - LIVE_RING_SIZE + 1); seq <= this.seq; seq++) {
      const event = this.ring[seq % LIVE_RING_SIZE];
      if (event && SIGN_IN_EVENTS.has(event.name) && affects(event, stream)) {
        this.checkOne(stream);
        break;
      }
    }
    if (!this.timer) {
      this.timer = setInterval(() => this.recheck((s) => Date.now() - (this.checkedAt.get(s) ?? 0) >= LIVE_CHECK_MS), LIVE_CHECK_MS / 6);
      this.timer.unref();
    }
  }

  /** Forgets a closed stream. */
  remove(stream: LiveStream): void {
    this.streams.delete(stream);
    this.checkedAt.delete(stream);
    if (this.streams.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Checks the sign-in of every stream matching `which` (all: after the listener reconnected). */
  recheck(which: (stream: LiveStream) => boolean = () => true): void {
    for (const stream of this.streams) if (which(stream)) this.checkOne(stream);
  }

  /**
   * The bus's listener reconnected: notifications of the gap are lost, so every stream is told to
   * refetch (`reset: missed`) and checks its sign-in again (a revocation may be among them).
   */
  resync(): void {
    for (const stream of this.streams) stream.control('reset', { reason: 'missed' });
    this.recheck();
  }

  /** Closes every stream (the app is closing): `closed: shutdown`. */
  closeAll(): void {
    for (const stream of [...this.streams]) stream.close('shutdown');
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One check at a time per stream; a request during a check runs once more after it. */
  private checkOne(stream: LiveStream): void {
    const running = this.checking.get(stream);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.checking.set(stream, state);
    this.checkedAt.set(stream, Date.now());
    this.check(stream).then((signIn) => {
      if (!stream.isOpen) return;
      if (!signIn) {
        stream.close('signedOut');
        return;
      }
      const changed = !sameKeys(signIn.authorities, stream.signIn.authorities);
      stream.signIn = signIn;
      if (changed) stream.control('reset', { reason: 'authorities' });
    }, (error: unknown) => {
      this.log.warn({ err: error }, 'live stream: sign-in check failed; retried at the next check');
    }).finally(() => {
      this.checking.delete(stream);
      if (state.again && stream.isOpen) this.checkOne(stream);
    });
  }
}
