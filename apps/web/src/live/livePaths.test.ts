/**
 * livePaths.ts is a plain copy of what targets.ts derives (so the console frame builds no endpoint
 * table at start): both lists must stay equal to targets.ts's.
 */
import { describe, expect, it } from 'vitest';
import { LIVE_EVENT_NAMES, LIVE_PATHS } from './livePaths';
import { LIVE_TARGETS } from './targets';

describe('live paths', () => {
  it('lists every path an event refreshes, and no other', () => {
    const derived = new Set(Object.values(LIVE_TARGETS).flatMap((targets) => targets.map((target) => target.endpoint.path)));
    expect([...LIVE_PATHS].sort()).toEqual([...derived].sort());
  });

  it('lists the events targets.ts handles, in its order', () => {
    expect(LIVE_EVENT_NAMES).toEqual(Object.keys(LIVE_TARGETS));
  });
});
