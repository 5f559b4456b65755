/**
 * When a generated lock acts (pure, no I/O): heartbeat times with jitter, reconnect backoff after a
 * lost connection, and a timer wheel that hands a worker the devices due at each sweep, so a worker
 * holding thousands of locks runs one interval instead of one timer per lock.
 * All times are ms since epoch, periods ms; `random` returns [0, 1) like Math.random.
 */

/** Uniform random number in [0, 1). */
export type Random = () => number;

/**
 * The first heartbeat of a lock that just joined: uniform over one period, so a fleet started at once
 * spreads its load evenly (N / period msg/s) instead of N messages in the first second.
 */
export function firstHeartbeatAt(now: number, periodMs: number, random: Random): number {
  return now + Math.floor(random() * periodMs);
}

/**
 * The heartbeat after one sent at `now`: one period later, moved by up to +-`jitter` (a fraction, e.g.
 * 0.1 = +-10 %) of it. NB-IoT locks drift like this because their wake-ups follow the modem's PSM and
 * eDRX timers and the cell's random-access delays, not an exact clock.
 */
export function nextHeartbeatAt(now: number, periodMs: number, jitter: number, random: Random): number {
  return now + Math.max(1, Math.round(periodMs * (1 + jitter * (2 * random() - 1))));
}

export interface Backoff {
  /** The first attempt after a lost connection waits uniform [0, spreadMs): every lock back within it. */
  spreadMs: number;
  /** Later attempts wait uniform [0, min(capMs, baseMs * 2^(attempt - 1))) ("full jitter"). */
  baseMs: number;
  capMs: number;
}

/**
 * Delay before reconnect attempt `attempt` (0 = first after the loss), ms. Full jitter (AWS
 * Architecture Blog, "Exponential Backoff And Jitter") keeps a fleet that lost its broker at once from
 * reconnecting in lockstep.
 */
export function reconnectDelayMs(attempt: number, backoff: Backoff, random: Random): number {
  if (attempt <= 0) return Math.floor(random() * backoff.spreadMs);
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.floor(random() * ceiling);
}

/**
 * Items bucketed by due time in slots of `slotMs`. `take(now)` returns (and forgets) every item of
 * the slots that ended by `now`, oldest slot first: an item comes at most one slot late, never early,
 * so an item whose own due time is after `now` is a stale entry (rescheduled later) the caller skips.
 */
export class TimerWheel<T> {
  private readonly slots = new Map<number, T[]>();
  private cursor: number;

  constructor(private readonly slotMs: number, now: number) {
    this.cursor = Math.floor(now / slotMs);
  }

  /** Items held, stale ones included. */
  size = 0;

  /** Schedules `item` at `due` (a past time is due at the next take). */
  add(due: number, item: T): void {
    const slot = Math.max(this.cursor, Math.floor(due / this.slotMs));
    const list = this.slots.get(slot);
    if (list) list.push(item);
    else this.slots.set(slot, [item]);
    this.size++;
  }

  /** Removes and returns the items of every slot that ended by `now`. */
  take(now: number): T[] {
    const last = Math.floor(now / this.slotMs) - 1;
    const due: T[] = [];
    for (; this.cursor <= last; this.cursor++) {
      const list = this.slots.get(this.cursor);
      if (!list) continue;
      this.slots.delete(this.cursor);
      this.size -= list.length;
      for (const item of list) due.push(item);
    }
    return due;
  }
}
