/** The simulated lock's open decisions: slots, windows, frozen users, one-time passwords, schedules and user types. */
import { describe, expect, it } from 'vitest';
import { applyDownlink } from './commands.js';
import { LockState } from './lock-state.js';
import { type AttemptInput, attemptOpen as decide } from './open-attempt.js';

/** The answer at the door (the lock's books aside). */
const attemptOpen = (state: LockState, input: AttemptInput, at: number) => decide(state, input, at).result;

const NOW = 1_700_000_000_000;
const send = (state: LockState, type: string, data: object) => applyDownlink(state, { msgId: String(Math.random()), type, data }, NOW).result.code;

describe('attemptOpen', () => {
  it('opens with a held password, tied to its slot and user slot; refuses unknown, frozen, out of window and reused', () => {
    const state = new LockState('ZG-NB100', 30);
    expect(send(state, 'userOperation', { action: 'add', userSlot: 2, name: 'a' })).toBe(0);
    expect(send(state, 'tempPassword', { action: 'add', slot: 4, userSlot: 2, password: '123456', validFrom: NOW, validTo: NOW + 60_000 })).toBe(0);
    expect(attemptOpen(state, { method: 'password', password: '123456' }, NOW + 1)).toEqual({ success: true, reason: null, slot: 4, userSlot: 2 });
    expect(attemptOpen(state, { method: 'password', password: '654321' }, NOW + 1).reason).toBe('unknown');
    expect(attemptOpen(state, { method: 'password', password: '123456' }, NOW + 60_000).reason).toBe('expired');
    expect(attemptOpen(state, { method: 'password', password: '123456' }, NOW - 1).reason).toBe('notYetValid');
    send(state, 'userOperation', { action: 'freeze', userSlot: 2 });
    expect(attemptOpen(state, { method: 'password', password: '123456' }, NOW + 1).reason).toBe('frozen');
    expect(send(state, 'tempPassword', { action: 'add', slot: 5, password: '777888', oneTime: true })).toBe(0);
    expect(attemptOpen(state, { method: 'password', password: '777888' }, NOW).success).toBe(true);
    expect(attemptOpen(state, { method: 'password', password: '777888' }, NOW).reason).toBe('used');
  });

  it('matches a card as the lock reads it and a fingerprint by slot; capacity comes from the contract', () => {
    const state = new LockState('ZG-NB300', 30);
    expect(state.capacity.passwords).toBe(200);
    expect(send(state, 'cardOperate', { action: 'add', cardNumber: 'A1B2C3D4', reversed: true })).toBe(0);
    expect(attemptOpen(state, { method: 'card', cardNumber: 'd4c3b2a1' }, NOW).success).toBe(true);
    expect(attemptOpen(state, { method: 'fingerprint', fingerprintSlot: 0 }, NOW).reason).toBe('unknown');
  });

  it('enforces week-day schedules and holiday operating modes', () => {
    const monday0930 = Date.parse('2026-11-23T09:30:00+08:00');
    const state = new LockState('ZG-NB200', 30);
    send(state, 'userOperation', { action: 'add', userSlot: 0, name: 'cleaner' });
    send(state, 'foreverPassword', { action: 'add', slot: 0, userSlot: 0, password: '246810' });
    expect(send(state, 'weekDaySchedule', { action: 'set', userSlot: 0, index: 0, daysMask: 0b0111110, startHour: 9, startMinute: 0, endHour: 12, endMinute: 0 })).toBe(0);
    expect(state.users.get(0)?.userType).toBe('scheduleRestrictedUser');
    expect(send(state, 'weekDaySchedule', { action: 'set', userSlot: 0, index: 7, daysMask: 1, startHour: 9, startMinute: 0, endHour: 12, endMinute: 0 })).toBe(2);
    const typed = { method: 'password', password: '246810' } as const;
    expect(attemptOpen(state, typed, monday0930).success).toBe(true);
    expect(attemptOpen(state, typed, monday0930 + 3 * 3_600_000).reason).toBe('outsideSchedule');
    expect(send(state, 'holidaySchedule', { action: 'set', index: 0, localStartTime: monday0930 - 3_600_000, localEndTime: monday0930 + 3_600_000, operatingMode: 'vacation' })).toBe(0);
    expect(attemptOpen(state, typed, monday0930).reason).toBe('operatingMode');
    expect(send(state, 'holidaySchedule', { action: 'clear', index: 0 })).toBe(0);
    expect(attemptOpen(state, typed, monday0930).success).toBe(true);
  });

  it('implements forced, disposable and dual-rule users', () => {
    const state = new LockState('ZG-NB300', 30);
    send(state, 'userOperation', { action: 'add', userSlot: 0, name: 'duress', userType: 'forcedUser' });
    send(state, 'foreverPassword', { action: 'add', slot: 0, userSlot: 0, password: '111111' });
    expect(decide(state, { method: 'password', password: '111111' }, NOW)).toMatchObject({ result: { success: true, reason: null }, effects: { duress: true } });
    send(state, 'userOperation', { action: 'add', userSlot: 1, name: 'once', userType: 'disposableUser' });
    send(state, 'foreverPassword', { action: 'add', slot: 1, userSlot: 1, password: '222222' });
    expect(decide(state, { method: 'password', password: '222222' }, NOW).effects.disposedUserSlot).toBe(1);
    expect(state.users.has(1)).toBe(false);
    expect(attemptOpen(state, { method: 'password', password: '222222' }, NOW).reason).toBe('unknown');
    send(state, 'userOperation', { action: 'add', userSlot: 2, name: 'cashier', credentialRule: 'dual' });
    send(state, 'foreverPassword', { action: 'add', slot: 2, userSlot: 2, password: '333333' });
    send(state, 'userOperation', { action: 'add', userSlot: 3, name: 'guard' });
    send(state, 'cardOperate', { action: 'add', slot: 0, userSlot: 3, cardNumber: 'AABBCCDD' });
    expect(attemptOpen(state, { method: 'password', password: '333333' }, NOW).reason).toBe('awaitingSecondCredential');
    expect(attemptOpen(state, { method: 'card', cardNumber: 'AABBCCDD' }, NOW + 11_000).success).toBe(true); // too late: opens for the guard alone
    expect(attemptOpen(state, { method: 'password', password: '333333' }, NOW + 20_000).success).toBe(false);
    expect(attemptOpen(state, { method: 'card', cardNumber: 'AABBCCDD' }, NOW + 25_000).success).toBe(true);
  });
});
