import { LOW_BATTERY_PERCENT, protocol } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { ACTIVITY_PRESETS, type ActivityRates, DEFAULT_ACTIVITY, LockActivity } from './activity.js';
import { SimulatedLock } from './lock.js';
import { seededRandom } from './random.js';
import type { SimulatedDevice } from './types.js';

const device = (battery: number): SimulatedDevice => ({
  imei: '860000000000099', secret: 's', tenantId: 100, model: 'ZG-N1', firmwareVersion: '2.1.0', heartbeatIntervalS: 30, lastSeq: 9, battery,
});

/** Runs `beats` heartbeats of a lock with activity; returns every uplink in publication order. */
function run(beats: number, battery: number, seed: number, rates: ActivityRates | undefined = DEFAULT_ACTIVITY) {
  const lock = new SimulatedLock(device(battery), { random: seededRandom(seed), activity: rates, behaviour: { drainProbability: 0 } });
  const messages: protocol.UplinkMessage[] = [...lock.eventsOnConnect(1)];
  for (let i = 0; i < beats; i++) messages.push(lock.nextHeartbeat(i * 30_000), ...lock.eventsAfterHeartbeat(i * 30_000));
  return messages;
}

describe('simulated lock activity', () => {
  it('produces valid uplinks with one strictly increasing seq shared with heartbeats, starting with a configReport', () => {
    const messages = run(2000, 80, 1);
    expect(messages[0]?.type).toBe('configReport');
    expect(messages.map((m) => m.seq)).toEqual(messages.map((_, i) => 10 + i));
    for (const message of messages) expect(protocol.uplinkMessage.parse(message)).toEqual(message);
  });

  it('opens every few heartbeats, mostly successfully, with door open then closed', () => {
    const messages = run(4000, 80, 2);
    const opens = messages.filter((m) => m.type === 'openRecord');
    expect(opens.length / 4000).toBeGreaterThan(0.15);
    expect(opens.length / 4000).toBeLessThan(0.3);
    const failed = opens.filter((m) => !m.data.success).length / opens.length;
    expect(failed).toBeGreaterThan(0.03);
    expect(failed).toBeLessThan(0.2);
    expect(new Set(opens.map((m) => m.data.method))).toEqual(new Set(['app', 'password', 'card', 'fingerprint', 'mechanicalKey']));
    const doors = messages.filter((m) => m.type === 'doorState').map((m) => m.data.door);
    for (let i = 0; i < doors.length; i += 2) expect(doors.slice(i, i + 2)).toEqual(i + 1 < doors.length ? ['open', 'closed'] : ['open']);
  });

  it('raises rare alarms and clears them later; doorLeftOpen only while the door is open', () => {
    const alarms = run(20_000, 80, 3).filter((m) => m.type === 'alarm');
    const of = (kind: string, cleared: boolean) => alarms.filter((m) => m.data.kind === kind && m.data.cleared === cleared).length;
    expect(of('doorLeftOpen', false)).toBeGreaterThan(20);
    expect(of('wrongPasswordLockout', false)).toBeGreaterThan(10);
    expect(of('tamper', false)).toBeLessThan(15);
    for (const kind of ['doorLeftOpen', 'wrongPasswordLockout', 'tamper']) expect(Math.abs(of(kind, false) - of(kind, true))).toBeLessThanOrEqual(1);
    expect(of('lowBattery', false)).toBe(0);
  });

  it('reports lowBattery while the battery is low, repeating now and then', () => {
    const low = run(250, LOW_BATTERY_PERCENT, 4).filter((m) => m.type === 'alarm' && m.data.kind === 'lowBattery');
    expect(low.length).toBe(3); // beats 0, 100, 200
    expect(low[0]?.data).toMatchObject({ cleared: false, detail: `${LOW_BATTERY_PERCENT}%` });
  });

  it('is deterministic for a seed and silent without activity', () => {
    expect(run(300, 50, 7)).toEqual(run(300, 50, 7));
    const quiet = new SimulatedLock(device(50), { random: seededRandom(1) });
    expect([...quiet.eventsOnConnect(), ...quiet.eventsAfterHeartbeat()]).toEqual([]);
    expect(new LockActivity(seededRandom(1)).configReport(2)).toEqual({ type: 'configReport', data: { config: expect.not.objectContaining({ heartbeatIntervalS: 2 }) } });
  });

  it('high activity opens doors with no unlock and bursts failed attempts (derived forcedEntry, bruteForce)', () => {
    const messages = run(2000, 80, 11, ACTIVITY_PRESETS.high);
    let forced = 0;
    let lastSuccess = -1;
    messages.forEach((m, i) => {
      if (m.type === 'openRecord' && m.data.success) lastSuccess = i;
      if (m.type === 'doorState' && m.data.door === 'open' && lastSuccess !== i - 1) forced++;
    });
    expect(forced).toBeGreaterThan(1);
    let longestFailedRun = 0;
    let failedRun = 0;
    for (const m of messages) {
      if (m.type !== 'openRecord') continue;
      failedRun = m.data.success ? 0 : failedRun + 1;
      longestFailedRun = Math.max(longestFailedRun, failedRun);
    }
    expect(longestFailedRun).toBeGreaterThanOrEqual(6);
  });
});
