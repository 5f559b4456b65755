/** The simulated lock checks offline codes at its keypad: within the window, once for one-time codes. */
import { offlineCode } from '@iot/contract/offline-code';
import { describe, expect, it } from 'vitest';
import { LockState } from './lock-state.js';
import { OfflineCodes } from './offline-codes.js';
import { attemptOpen } from './open-attempt.js';

const KEY = Buffer.alloc(32, 7);
const HOUR = 3_600_000;
const START = Date.parse('2026-12-01T02:00:00Z');
const lock = () => {
  const state = new LockState('ZG-NB100', 30);
  state.offlineCodes = new OfflineCodes(KEY);
  return state;
};
const type = (state: LockState, password: string, at: number) => attemptOpen(state, { method: 'password', password }, at).result;

describe('offline codes at the simulated keypad', () => {
  it('opens with a one-time code once within its 6 hours; refuses it the second time and outside', () => {
    const state = lock();
    const code = offlineCode(KEY, { kind: 'oneTime', startHour: START / HOUR });
    expect(type(state, code, START - 1)).toMatchObject({ success: false, reason: 'unknown' });
    expect(type(state, code, START + 5 * HOUR)).toEqual({ success: true, reason: null, slot: null, userSlot: null });
    expect(type(state, code, START + 5 * HOUR + 1)).toMatchObject({ success: false, reason: 'used' });
    expect(type(lock(), code, START + 6 * HOUR)).toMatchObject({ success: false, reason: 'unknown' });
  });

  it('opens with an hourly code as often as wanted within its window', () => {
    const state = lock();
    const code = offlineCode(KEY, { kind: 'hourly', startHour: START / HOUR, hours: 3 });
    expect(type(state, code, START).success).toBe(true);
    expect(type(state, code, START + 3 * HOUR - 1).success).toBe(true);
    expect(type(state, code, START + 3 * HOUR).reason).toBe('unknown');
  });

  it('refuses offline codes on a lock without a key and in privacy mode', () => {
    const code = offlineCode(KEY, { kind: 'hourly', startHour: START / HOUR, hours: 3 });
    expect(type(new LockState('ZG-NB100', 30), code, START).reason).toBe('unknown');
    const state = lock();
    state.holidays.set(0, { start: START - HOUR, end: START + HOUR, operatingMode: 'privacy' });
    expect(type(state, code, START).reason).toBe('operatingMode');
  });
});
