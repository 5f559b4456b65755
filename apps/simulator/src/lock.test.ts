import { protocol } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { BATTERY_FLOOR, FACTORY_FIRMWARE, RSSI_RANGE, SimulatedLock, SNR_RANGE } from './lock.js';
import { seededRandom } from './random.js';
import type { SimulatedDevice } from './types.js';

const device = (n: number, extra: Partial<SimulatedDevice> = {}): SimulatedDevice => ({
  imei: String(860000000000000 + n), secret: 's', tenantId: 100, model: 'ZG-N1', firmwareVersion: '2.1.0',
  heartbeatIntervalS: 30, lastSeq: null, battery: null, ...extra,
});

describe('SimulatedLock', () => {
  it('produces valid heartbeats with strictly increasing seq continuing from lastSeq', () => {
    const lock = new SimulatedLock(device(1, { lastSeq: 41 }), { random: seededRandom(1) });
    const messages = Array.from({ length: 50 }, (_, i) => lock.nextHeartbeat(1_700_000_000_000 + i));
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 42 + i));
    for (const message of messages) expect(protocol.uplinkMessage.parse(message)).toEqual(message);
    expect(messages[0]?.data).toMatchObject({ firmwareVersion: '2.1.0', intervalS: 30 });
  });

  it('reports the factory firmware when the platform knows none (a lock registered in the console), so its heartbeats are valid', () => {
    const lock = new SimulatedLock(device(3, { firmwareVersion: '' }), { random: seededRandom(3) });
    const message = lock.nextHeartbeat(1_700_000_000_000);
    expect(message.data.firmwareVersion).toBe(FACTORY_FIRMWARE);
    expect(protocol.uplinkMessage.parse(message)).toEqual(message);
  });

  it('keeps readings in range over a long run: battery drains slowly and never below the floor', () => {
    const lock = new SimulatedLock(device(2, { battery: 7 }), { random: seededRandom(2), intervalS: 5, behaviour: { drainProbability: 0.5 } });
    for (let i = 0; i < 500; i++) {
      const { data } = lock.nextHeartbeat();
      expect(data.battery).toBeGreaterThanOrEqual(BATTERY_FLOOR);
      expect(data.rssi).toBeGreaterThanOrEqual(RSSI_RANGE.min);
      expect(data.rssi).toBeLessThanOrEqual(RSSI_RANGE.max);
      expect(data.snr).toBeGreaterThanOrEqual(SNR_RANGE.min);
      expect(data.snr).toBeLessThanOrEqual(SNR_RANGE.max);
      expect(data.intervalS).toBe(5);
    }
    expect(lock.battery).toBe(BATTERY_FLOOR);
  });

  it('is deterministic for a seed', () => {
    const run = () => {
      const lock = new SimulatedLock(device(3), { random: seededRandom(99) });
      return Array.from({ length: 5 }, () => lock.nextHeartbeat(0));
    };
    expect(run()).toEqual(run());
  });

  it('makes ~5% of locks flaky, going offline for 3-6 intervals; ~10% start with a low battery', () => {
    const random = seededRandom(3);
    const locks = Array.from({ length: 2000 }, (_, i) => new SimulatedLock(device(i), { random }));
    const flaky = locks.filter((lock) => lock.flaky);
    expect(flaky.length / locks.length).toBeGreaterThan(0.03);
    expect(flaky.length / locks.length).toBeLessThan(0.07);
    const low = locks.filter((lock) => lock.battery <= 20).length / locks.length;
    expect(low).toBeGreaterThan(0.07);
    expect(low).toBeLessThan(0.13);
    const outages = flaky.flatMap((lock) => Array.from({ length: 50 }, () => lock.offlineIntervalsAfterHeartbeat())).filter((n) => n > 0);
    expect(outages.length).toBeGreaterThan(0);
    expect(Math.min(...outages)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...outages)).toBeLessThanOrEqual(6);
    const steady = locks.find((lock) => !lock.flaky);
    expect(Array.from({ length: 100 }, () => steady?.offlineIntervalsAfterHeartbeat()).every((n) => n === 0)).toBe(true);
  });

  it('records downlinks', () => {
    const lock = new SimulatedLock(device(4), { random: seededRandom(4) });
    lock.handleDownlink(Buffer.from('{"msgId":"c1"}'));
    expect(lock.downlinks).toEqual([{ msgId: 'c1' }]);
  });
});
