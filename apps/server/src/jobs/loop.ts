/**
 * The sleep-and-wake loop of every background worker: a worker runs
 * when an event gives it work (`wake()`), or when the earliest due time it knows has come (a retry,
 * a timeout, an expiry, a lease), or at a safety sweep no more often than `safetyMs` that catches
 * what a lost notification did not announce. Between runs it holds one timer and makes no query.
 *
 * Runs never overlap: a wake during a run makes one more run follow it. A run's error is logged and
 * the next run comes at the safety sweep (or earlier when woken).
 */

/** What one run learned: ms until its next due time (undefined: nothing due; sleep until woken or the safety sweep). */
export type NextDue = number | undefined;

export interface WorkerLoopOptions {
  /** For the log. */
  name: string;
  /**
   * One pass. `due` is true when the timer started it (a due time or the safety sweep: do the full
   * sweep), false when wake() did (do what the wake asked for).
   */
  run(due: boolean): Promise<NextDue>;
  /** Longest sleep, ms: the safety sweep. */
  safetyMs: number;
  /** First timed run after start, ms (default: at once; `minDelayMs` does not apply). */
  firstRunMs?: number;
  /** Shortest sleep before a due run, ms (default 20): a due time in the past does not spin. */
  minDelayMs?: number;
  log: { warn(fields: object, message?: string): void };
}

export interface WorkerLoop {
  /** Asks for a run soon (not a full sweep). */
  wake(): void;
  /** Asks for a full (due) run at most `ms` from now (an earlier one stays): a debounce for bursts of events. */
  dueIn(ms: number): void;
  /** Asks for a full (due) run now and resolves once the runs in progress and asked for are done (tests, benchmarks). */
  sweepNow(): Promise<void>;
  /** Stops the timer and waits for the run in progress; no run starts afterwards. */
  close(): Promise<void>;
}

/** Starts the loop; its first due run comes after `firstRunMs`. */
export function startWorkerLoop(options: WorkerLoopOptions): WorkerLoop {
  const minDelayMs = options.minDelayMs ?? 20;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let running: Promise<void> | undefined;
  let wakeAsked = false;
  let dueAsked = false;
  let closed = false;

  function schedule(inMs: number, floorMs = minDelayMs): void {
    const at = Date.now() + Math.max(floorMs, inMs);
    if (closed || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      dueAsked = true;
      kick();
    }, at - Date.now());
    timer.unref();
  }

  async function loop(): Promise<void> {
    while (!closed && (wakeAsked || dueAsked)) {
      const due = dueAsked;
      const startedAt = Date.now();
      wakeAsked = false;
      dueAsked = false;
      let next: NextDue;
      try {
        next = await options.run(due);
      } catch (error) {
        if (!closed) options.log.warn({ worker: options.name, err: error }, 'worker run failed; retried at the next sweep');
      }
      if (due) schedule(startedAt + options.safetyMs - Date.now()); // a steady cadence from the last sweep's start
      if (next !== undefined) schedule(next);
    }
  }

  function kick(): void {
    if (running || closed) return;
    running = loop().finally(() => {
      running = undefined;
      if (wakeAsked || dueAsked) kick();
    });
  }

  schedule(options.firstRunMs ?? 0, 0);
  return {
    wake() {
      wakeAsked = true;
      kick();
    },
    dueIn: (ms) => schedule(ms),
    async sweepNow() {
      dueAsked = true;
      kick();
      while (running) await running;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}
