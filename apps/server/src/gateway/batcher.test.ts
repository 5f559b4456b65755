import { describe, expect, it } from 'vitest';
import { createBatcher, createLanes, QueueFullError } from './batcher.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('batcher', () => {
  it('writes a full batch at once and resolves only after the write', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = createBatcher<number>({ maxBatch: 3, maxDelayMs: 10_000, write: async (items) => { writes.push(items); await gate; } });
    let resolved = 0;
    const adds = [1, 2, 3].map((n) => batcher.add(n).then(() => resolved++));
    await sleep(5);
    expect(writes).toEqual([[1, 2, 3]]);
    expect(resolved).toBe(0);
    release();
    await Promise.all(adds);
    expect(resolved).toBe(3);
    expect(batcher.stats()).toMatchObject({ batches: 1, written: 3, queued: 0 });
  });

  it('writes a partial batch after maxDelayMs', async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>({ maxBatch: 100, maxDelayMs: 15, write: async (items) => { writes.push(items); } });
    const started = Date.now();
    await Promise.all([batcher.add(1), batcher.add(2)]);
    expect(writes).toEqual([[1, 2]]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10);
  });

  it('groups what arrives during a write into the next batch, one writer at a time', async () => {
    const writes: number[][] = [];
    let concurrent = 0;
    let maxConcurrent = 0;
    const batcher = createBatcher<number>({
      maxBatch: 2, maxDelayMs: 1,
      write: async (items) => {
        maxConcurrent = Math.max(maxConcurrent, ++concurrent);
        writes.push(items);
        await sleep(10);
        concurrent--;
      },
    });
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)));
    expect(writes).toEqual([[1, 2], [3, 4], [5]]);
    expect(maxConcurrent).toBe(1);
  });

  it('rejects every item of a failed batch and keeps working', async () => {
    let fail = true;
    const batcher = createBatcher<number>({ maxBatch: 10, maxDelayMs: 1, write: async () => { if (fail) throw new Error('db down'); } });
    const results = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(batcher.add(3)).resolves.toBeUndefined();
    expect(batcher.stats()).toMatchObject({ failedBatches: 1, batches: 1, written: 1 });
  });

  it('refuses items beyond maxQueue (backpressure)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = createBatcher<number>({ maxBatch: 2, maxDelayMs: 1, maxQueue: 3, write: () => gate });
    const first = [batcher.add(1), batcher.add(2)]; // taken by the (blocked) write
    await sleep(1);
    const queued = [batcher.add(3), batcher.add(4), batcher.add(5)];
    await expect(batcher.add(6)).rejects.toBeInstanceOf(QueueFullError);
    expect(batcher.stats()).toMatchObject({ queued: 3, writing: 2, refusedFull: 1 });
    release();
    await Promise.all([...first, ...queued]);
  });

  it('close() writes what is queued and refuses further items', async () => {
    const written: number[] = [];
    const batcher = createBatcher<number>({ maxBatch: 2, maxDelayMs: 10_000, write: async (items) => { written.push(...items); } });
    const adds = [1, 2, 3].map((n) => batcher.add(n));
    await batcher.close();
    await Promise.all(adds);
    expect(written).toEqual([1, 2, 3]);
    await expect(batcher.add(4)).rejects.toThrow(/closed/);
  });

  it('lanes: runs one write per lane at once, keeps each key in its lane and in order, and sums the stats', async () => {
    const writes: { lane: number; items: number[] }[] = [];
    let running = 0;
    let peak = 0;
    const lanes = createLanes<number>(2, (n) => n, {
      maxBatch: 2, maxDelayMs: 1,
      write: async (items) => {
        running++;
        peak = Math.max(peak, running);
        await sleep(20);
        writes.push({ lane: (items[0] as number) % 2, items });
        running--;
      },
    });
    await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((n) => lanes.add(n)));
    expect(peak).toBe(2);
    for (const { lane, items } of writes) expect(items.every((n) => n % 2 === lane)).toBe(true);
    expect(writes.filter((w) => w.lane === 1).flatMap((w) => w.items)).toEqual([1, 3, 5, 7]);
    expect(lanes.stats()).toMatchObject({ batches: 4, written: 8, queued: 0, writing: 0 });
    await lanes.close();
    await expect(lanes.add(9)).rejects.toThrow('closed');
  });
});
