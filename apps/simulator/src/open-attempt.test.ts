/** The simulated lock's open decisions (issue #4): slots, windows, frozen users, one-time passwords. */
import { describe, expect, it } from 'vitest';
import { applyDownlink } from './commands.js';
import { LockState } from './lock-state.js';
import { attemptOpen } from './open-attempt.js';

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
});
