/** CountMemory: which counts are remembered, per key, and for how long. */
import { describe, expect, it } from 'vitest';
import { COUNT_REMEMBER_FROM, COUNT_REMEMBER_MS, CountMemory, type CountResult } from './count.js';

/** A count source that answers `totals` in turn and counts its calls. */
function source(...totals: CountResult[]) {
  let calls = 0;
  return { take: async () => totals[Math.min(calls++, totals.length - 1)] as CountResult, calls: () => calls };
}

describe('CountMemory', () => {
  it('counts a small log every time, so a new row shows at once', async () => {
    const memory = new CountMemory();
    const small = source({ total: COUNT_REMEMBER_FROM - 1 }, { total: COUNT_REMEMBER_FROM });
    expect(await memory.count('100 {}', small.take)).toEqual({ total: COUNT_REMEMBER_FROM - 1 });
    expect(await memory.count('100 {}', small.take)).toEqual({ total: COUNT_REMEMBER_FROM });
    expect(small.calls()).toBe(2);
  });

  it('remembers a large count per key until its time is up', async () => {
    let now = 1_000;
    const memory = new CountMemory(() => now);
    const large = source({ total: 8000 }, { total: 8001 });
    expect(await memory.count('100 {}', large.take)).toEqual({ total: 8000 });
    expect(await memory.count('100 {}', large.take)).toEqual({ total: 8000 });
    expect(large.calls()).toBe(1);
    const otherTenant = source({ total: 7 });
    expect(await memory.count('101 {}', otherTenant.take)).toEqual({ total: 7 });
    now += COUNT_REMEMBER_MS + 1;
    expect(await memory.count('100 {}', large.take)).toEqual({ total: 8001 });
    expect(large.calls()).toBe(2);
  });

  it('keeps a capped count capped', async () => {
    const memory = new CountMemory();
    const capped = source({ total: 10_000, totalCapped: true });
    await memory.count('100 {"imei":"1"}', capped.take);
    expect(await memory.count('100 {"imei":"1"}', capped.take)).toEqual({ total: 10_000, totalCapped: true });
    expect(capped.calls()).toBe(1);
  });
});
