import { describe, expect, it } from 'vitest';
import { applyReadings, assignTotals, bookedAt, type CircuitState, energyDelta, type RollupIncrement } from './readings.js';

const circuit = (over: Partial<CircuitState> = {}): CircuitState => ({
  id: 7, tenantId: 100, airSwitchId: 1, circuit: 1, state: null, tripReason: null, energyKwh: null, readingSeq: null, energyTotalKwh: 0, energyHour: null, hourPowerMaxW: 0, ...over,
});
const telemetry = (seq: number, energyKwh: number, extra: object = {}) => ({
  airSwitchId: 1, tenantId: 100,
  message: { msgId: `m${seq}`, seq, ts: Date.UTC(2026, 10, 23, 1, 30), type: 'telemetry' as const, data: { circuits: [{
    circuit: 1, voltage: 230, current: 1, power: 200, powerFactor: 1, energyKwh, leakageMa: 0, temperatureC: 30, state: 'on' as const, ...extra,
  }] } },
});

describe('air switch readings', () => {
  it('counts the counter\'s increase, a reset as the new value, and nothing for a first reading', () => {
    expect(energyDelta(null, 120)).toBe(0);
    expect(energyDelta(100, 101.5)).toBe(1.5);
    expect(energyDelta(101.5, 0.25)).toBe(0.25);
  });

  it('books a reading at the device time unless its clock is more than a day off', () => {
    const now = Date.UTC(2026, 10, 23);
    expect(bookedAt(now - 3600_000, now).getTime()).toBe(now - 3600_000);
    expect(bookedAt(now - 3 * 86_400_000, now).getTime()).toBe(now);
  });

  it('rolls energy into the hour, ignores late readings and counts one trip per transition', () => {
    const circuits = new Map([['1:1', circuit()]]);
    const now = Date.UTC(2026, 10, 23, 2);
    const { rollups, alarms } = applyReadings([
      telemetry(1, 10), telemetry(2, 12), telemetry(3, 1), telemetry(2, 99),
      telemetry(4, 1.5, { state: 'tripped', tripReason: 'leakage', power: 0 }), telemetry(5, 1.5, { state: 'tripped', tripReason: 'leakage', power: 0 }),
    ], circuits, now);
    expect(rollups).toHaveLength(1);
    expect(rollups[0]).toMatchObject({ hour: new Date(Date.UTC(2026, 10, 23, 1)), kwh: 3.5, samples: 5, powerMax: 200, trips: 1 });
    expect(alarms).toEqual([expect.objectContaining({ kind: 'trip', severity: 'critical', detail: 'leakage', cleared: false })]);
    expect(circuits.get('1:1')).toMatchObject({ energyKwh: 1.5, readingSeq: 5, state: 'tripped', changed: true });
  });

  it('keeps each hour\'s cumulative kWh from the circuit\'s running total and flags a circuit with a late hour', () => {
    const hour = (h: number) => new Date(Date.UTC(2026, 10, 23, h));
    const increment = (circuitId: number, h: number, kwh: number): RollupIncrement => ({ tenantId: 100, circuitId, hour: hour(h), kwh, powerSum: 0, samples: 0, powerMax: 100 * h, trips: 0 });
    const onTime = circuit({ id: 1, energyTotalKwh: 10, energyHour: hour(3), hourPowerMaxW: 250 });
    const lateOne = circuit({ id: 2, energyTotalKwh: 5, energyHour: hour(5) });
    const rollups = [increment(1, 4, 2), increment(1, 3, 1), increment(2, 5, 1), increment(2, 2, 0.5), increment(2, 1, 0.25)];
    const late = assignTotals(rollups, [onTime, lateOne]);
    expect(rollups.map((r) => r.kwhTotal)).toEqual([13, 11, 6.75, 5.75, 5.25]);
    expect(rollups.map((r) => r.maxDelta)).toEqual([400, 50, 500, undefined, undefined]); // hour 3: 300 over the stored 250
    expect(onTime).toMatchObject({ energyTotalKwh: 13, energyHour: hour(4), hourPowerMaxW: 400, changed: true });
    expect(lateOne).toMatchObject({ energyTotalKwh: 6.75, energyHour: hour(5) });
    expect(late).toEqual(new Map([[2, hour(1)]]));
  });
});
