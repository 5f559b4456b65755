/**
 * Group commit: collects items from many producers and hands them to one writer in batches, so a
 * thousand heartbeats cost one transaction instead of a thousand fsyncs.
 *
 * - A batch is written when `maxBatch` items are queued or `maxDelayMs` after the first queued item,
 *   whichever comes first; while a write is running, new items accumulate and are written right after
 *   it (one writer at a time: PGlite has a single connection, and ordering stays simple).
 * - `add()` resolves only after the item's batch has been written (committed), and rejects with the
 *   writer's error when the write fails: the caller must not acknowledge the item then.
 * - Backpressure: at most `maxQueue` items wait; beyond that `add()` rejects at once with
 *   `QueueFullError` (the caller sheds load, e.g. by refusing the message so the device retries later).
 */

export interface BatcherOptions<T> {
  /** Writes one batch atomically; a rejection fails every item of the batch. */
  write(items: T[]): Promise<void>;
  /** Largest batch handed to `write`, items (default 500). */
  maxBatch?: number;
  /** Longest time the first item of a batch waits before the batch is written, ms (default 20). */
  maxDelayMs?: number;
  /** Most items waiting to be written; further `add()` calls reject with QueueFullError (default 10,000). */
  maxQueue?: number;
}

export interface BatcherStats {
  /** Items waiting for a write. */
  queued: number;
  /** Items in the write in progress. */
  writing: number;
  /** Largest number of items ever waiting. */
  queuedPeak: number;
  /** Batches written successfully. */
  batches: number;
  /** Items written successfully. */
  written: number;
  /** Batches whose write failed. */
  failedBatches: number;
  /** `add()` calls refused because the queue was full. */
  refusedFull: number;
}

export interface Batcher<T> {
  /** Queues `item`; resolves once it is written, rejects on write failure, full queue or after close(). */
  add(item: T): Promise<void>;
  /** Writes everything already queued, waits for it, and refuses further items. Never rejects. */
  close(): Promise<void>;
  stats(): BatcherStats;
}

/** Thrown by `add()` when `maxQueue` items are already waiting. */
export class QueueFullError extends Error {
  constructor(maxQueue: number) {
    super(`write queue full (${maxQueue} items waiting)`);
    this.name = 'QueueFullError';
  }
}

interface Pending<T> {
  item: T;
  resolve(): void;
  reject(error: unknown): void;
}

/** Creates a batcher around `options.write`. Throws on non-positive sizes. */
export function createBatcher<T>(options: BatcherOptions<T>): Batcher<T> {
  const maxBatch = options.maxBatch ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 20;
  const maxQueue = options.maxQueue ?? 10_000;
  if (!(maxBatch > 0 && maxQueue > 0 && maxDelayMs >= 0)) throw new Error('batcher sizes must be positive');

  let queue: Pending<T>[] = [];
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;
  let writingCount = 0;
  let closed = false;
  const counters = { queuedPeak: 0, batches: 0, written: 0, failedBatches: 0, refusedFull: 0 };

  function schedule(): void {
    if (current) return; // the running write flushes again when it ends
    if (queue.length >= maxBatch || closed) {
      flush();
    } else if (!timer && queue.length > 0) {
      timer = setTimeout(flush, maxDelayMs);
    }
  }

  function flush(): void {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (current || queue.length === 0) return;
    const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
    queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
    writingCount = batch.length;
    current = run(batch).finally(() => {
      current = undefined;
      writingCount = 0;
      // Group commit: whatever arrived during the write goes out now, without waiting for the timer.
      if (queue.length > 0) flush();
    });
  }

  async function run(batch: Pending<T>[]): Promise<void> {
    try {
      await options.write(batch.map((pending) => pending.item));
    } catch (error) {
      counters.failedBatches++;
      for (const pending of batch) pending.reject(error);
      return;
    }
    counters.batches++;
    counters.written += batch.length;
    for (const pending of batch) pending.resolve();
  }

  return {
    add(item) {
      if (closed) return Promise.reject(new Error('batcher closed'));
      if (queue.length >= maxQueue) {
        counters.refusedFull++;
        return Promise.reject(new QueueFullError(maxQueue));
      }
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (queue.length > counters.queuedPeak) counters.queuedPeak = queue.length;
        schedule();
      });
    },
    async close() {
      closed = true;
      while (current || queue.length > 0) {
        if (!current) flush();
        await current;
      }
    },
    stats() {
      return { queued: queue.length, writing: writingCount, ...counters };
    },
  };
}

/**
 * `lanes` independent batchers behind one Batcher: an item goes to lane `laneOf(item) % lanes`, so
 * items with the same key (e.g. a lock id) keep their order and never share a write with, or wait
 * on a row lock held by, another lane. Lets a database with several connections (PostgreSQL) run
 * that many group commits at once: one commit's fsync overlaps the next batch's statements.
 * Stats are summed over the lanes (queuedPeak: the sum of the lanes' peaks, an upper bound).
 */
export function createLanes<T>(lanes: number, laneOf: (item: T) => number, options: BatcherOptions<T>): Batcher<T> {
  if (!(Number.isInteger(lanes) && lanes > 0)) throw new Error('lanes must be a positive integer');
  const batchers = Array.from({ length: lanes }, () => createBatcher(options));
  if (lanes === 1) return batchers[0] as Batcher<T>;
  return {
    add: (item) => (batchers[Math.abs(laneOf(item)) % lanes] as Batcher<T>).add(item),
    async close() {
      await Promise.all(batchers.map((batcher) => batcher.close()));
    },
    stats() {
      const total: BatcherStats = { queued: 0, writing: 0, queuedPeak: 0, batches: 0, written: 0, failedBatches: 0, refusedFull: 0 };
      for (const batcher of batchers) {
        const stats = batcher.stats();
        for (const key of Object.keys(total) as (keyof BatcherStats)[]) total[key] += stats[key];
      }
      return total;
    },
  };
}
