/** The high-volume log lists' recent range and pager total (keysetPaging.ts). */
import { alertEndpoints, heartbeatLogEndpoints, openRecordEndpoints, uplinkLogEndpoints } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { isKeysetList, pagerTotal, RECENT_DAYS, wantsRecentRange, withRecentRange } from './keysetPaging';

describe('keyset paging of the log lists', () => {
  it('knows the high-volume logs by the cursor their query takes', () => {
    expect([heartbeatLogEndpoints.list, uplinkLogEndpoints.list, openRecordEndpoints.list].map(isKeysetList)).toEqual([true, true, true]);
    expect(isKeysetList(alertEndpoints.list)).toBe(false);
  });

  it('opens on the recent range only without a range and without one lock', () => {
    expect(wantsRecentRange(new URLSearchParams(''))).toBe(true);
    expect(wantsRecentRange(new URLSearchParams('imei=all&type=alarm'))).toBe(true);
    expect(wantsRecentRange(new URLSearchParams('imei=860000000000001'))).toBe(false);
    expect(wantsRecentRange(new URLSearchParams('lockId=3'))).toBe(false);
    expect(wantsRecentRange(new URLSearchParams('endTime=2026-01-01T00:00:00Z'))).toBe(false);
    const now = Date.parse('2026-03-08T10:20:30.400Z');
    const recent = withRecentRange(new URLSearchParams('tab=x'), now);
    expect(recent.get('startTime')).toBe('2026-03-01T10:20:00.000Z');
    expect(recent.get('tab')).toBe('x');
    expect(RECENT_DAYS).toBe(7);
  });

  it('offers one more page past a capped total while a next cursor exists', () => {
    const page = { records: [], total: 10_000, current: 1000, size: 10, totalCapped: true, nextCursor: 'x' };
    expect(pagerTotal(page, 1000, 10)).toBe(10_001);
    expect(pagerTotal({ ...page, current: 1, nextCursor: 'x' }, 1, 10)).toBe(10_000);
    expect(pagerTotal({ ...page, nextCursor: undefined }, 1000, 10)).toBe(10_000);
    expect(pagerTotal({ ...page, totalCapped: undefined, total: 42 }, 1, 10)).toBe(42);
  });
});
