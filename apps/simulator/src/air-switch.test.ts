import { describe, expect, it } from 'vitest';
import { AirSwitchState } from './air-switch.js';
import { seededRandom } from './random.js';

const device = { serial: 'AS0100000001', secret: 's', tenantId: 100, circuits: 4, lastSeq: null };
type Telemetry = { circuits: { circuit: number; power: number; energyKwh: number; state: string }[] };
const telemetryOf = (uplinks: { type: string; data: object }[]) => uplinks.find((u) => u.type === 'telemetry')?.data as Telemetry;

describe('simulated air switch', () => {
  it('follows its profile (office: busy at 10:00, quiet at 03:00 local) with counters that only grow', () => {
    const start = Date.UTC(2026, 10, 23, 19); // 03:00 in UTC+8
    const state = new AirSwitchState(device, 'office', seededRandom(1), start);
    let last = telemetryOf(state.tick(start)).circuits.map((c) => c.energyKwh);
    let night = 0;
    let day = 0;
    for (let minute = 1; minute <= 24 * 60; minute += 10) {
      const at = start + minute * 60_000;
      const circuits = telemetryOf(state.tick(at)).circuits;
      for (const [i, c] of circuits.entries()) expect(c.energyKwh).toBeGreaterThanOrEqual(last[i] as number);
      last = circuits.map((c) => c.energyKwh);
      const hour = new Date(at + 8 * 3600_000).getUTCHours();
      if (hour === 3) night += circuits[0]?.power ?? 0;
      if (hour === 10) day += circuits[0]?.power ?? 0;
    }
    expect(day).toBeGreaterThan(night * 5);
  });

  it('cuts the load of a switched-off circuit and keeps its counter still until it is on again', () => {
    const now = Date.UTC(2026, 10, 23, 2);
    const state = new AirSwitchState(device, 'shop', seededRandom(2), now);
    expect(state.switch(2, false)).toEqual({ type: 'switchEvent', data: { circuit: 2, state: 'off', source: 'remote' } });
    const before = telemetryOf(state.tick(now + 10_000)).circuits[1];
    const after = telemetryOf(state.tick(now + 3600_000)).circuits[1];
    expect(before).toMatchObject({ state: 'off', power: 0 });
    expect(after?.energyKwh).toBe(before?.energyKwh);
    state.switch(2, true);
    expect(telemetryOf(state.tick(now + 3610_000)).circuits[1]?.power).toBeGreaterThan(0);
    expect(state.switch(9, true)).toBeUndefined();
  });
});
