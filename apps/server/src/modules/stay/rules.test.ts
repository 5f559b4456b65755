/** The pure rules of a stay (docs/stays.md): lead time, issue time, door window, transitions, readiness. */
import { STAY_ALERT_BEFORE_MS, STAY_LEAD_MARGIN_MS } from '@iot/contract';
import { describe, expect, it } from 'vitest';
import { type DoorState, readinessOf } from './doors.js';
import { checkTransition, doorWindow, issueDueAt, leadTimeMs } from './rules.js';

const door = (userState: string | null, credentialState: string | null, released = false, userStatus = 'normal', cardState: string | null = null): DoorState =>
  ({ stayId: 1, guestId: 1, lockId: 1, lockUserId: 1, credentialId: 1, userState, userStatus, credentialState, cardCredentialId: cardState ? 2 : null, cardState, cardWanted: cardState !== null, released });
const issued = { state: 'BOOKED', issuedAt: new Date(0), pending: false };

describe('stay rules', () => {
  it('leads by the longest heartbeat interval plus the margin, before the 1-hour check', () => {
    expect(leadTimeMs([{ heartbeatIntervalS: 300 }, { heartbeatIntervalS: 30 }])).toBe(300_000 + STAY_LEAD_MARGIN_MS);
    const checkIn = Date.UTC(2030, 0, 1, 14);
    expect(issueDueAt(checkIn, 600_000).getTime()).toBe(checkIn - STAY_ALERT_BEFORE_MS - 600_000);
  });

  it('opens the doors from check-in minus the buffer before to check-out plus the buffer after', () => {
    const window = doorWindow({ checkInAt: new Date(Date.UTC(2030, 0, 1, 14)), checkOutAt: new Date(Date.UTC(2030, 0, 2, 12)), bufferBeforeMinutes: 30, bufferAfterMinutes: 15 });
    expect(window).toEqual({ validFrom: Date.UTC(2030, 0, 1, 13, 30), validTo: Date.UTC(2030, 0, 2, 12, 15) });
  });

  it('allows only the transitions of the contract', () => {
    expect(() => checkTransition('BOOKED', 'CHECKED_IN')).not.toThrow();
    expect(() => checkTransition('CHECKED_IN', 'CANCELLED')).toThrow();
    expect(() => checkTransition('CHECKED_OUT', 'CHECKED_IN')).toThrow();
    expect(() => checkTransition('CHECKED_IN', 'SUSPENDED')).not.toThrow();
    expect(() => checkTransition('SUSPENDED', 'CHECKED_OUT')).not.toThrow();
    expect(() => checkTransition('BOOKED', 'SUSPENDED')).toThrow();
    expect(() => checkTransition('SUSPENDED', 'CANCELLED')).toThrow();
  });

  it('is ready only when every door is 正常, failed before queued, pending before issue, none when over', () => {
    expect(readinessOf(issued, [door('normal', 'normal'), door('normal', 'normal')])).toEqual({ readiness: 'ready', queuedDoors: 0, failedDoors: 0 });
    expect(readinessOf(issued, [door('normal', 'normal'), door('adding', 'adding')])).toEqual({ readiness: 'queued', queuedDoors: 1, failedDoors: 0 });
    expect(readinessOf(issued, [door('add_failed', 'adding'), door('adding', 'adding')])).toEqual({ readiness: 'failed', queuedDoors: 1, failedDoors: 1 });
    expect(readinessOf({ ...issued, pending: true }, [door('normal', 'normal')]).readiness).toBe('queued');
    expect(readinessOf(issued, [door('normal', 'normal'), door('deleting', 'normal', true)]).readiness).toBe('ready');
    expect(readinessOf({ ...issued, issuedAt: null }, []).readiness).toBe('pending');
    expect(readinessOf({ ...issued, state: 'CHECKED_OUT' }, [door('deleting', 'normal', true)]).readiness).toBe('none');
    // A guest's card counts: still on its way (or not added yet) is queued, failed is failed.
    expect(readinessOf(issued, [door('normal', 'normal', false, 'normal', 'adding')])).toEqual({ readiness: 'queued', queuedDoors: 1, failedDoors: 0 });
    expect(readinessOf(issued, [door('normal', 'normal', false, 'normal', 'add_failed')]).readiness).toBe('failed');
    expect(readinessOf(issued, [door('normal', 'normal', false, 'normal', 'normal')]).readiness).toBe('ready');
    expect(readinessOf(issued, [{ ...door('normal', 'normal'), cardWanted: true }]).readiness).toBe('queued');
  });

  it('is suspended only when every door of a suspended stay is frozen on its lock; a freeze on its way is queued', () => {
    const suspended = { ...issued, state: 'SUSPENDED' };
    expect(readinessOf(suspended, [door('normal', 'normal', false, 'frozen')])).toEqual({ readiness: 'suspended', queuedDoors: 0, failedDoors: 0 });
    expect(readinessOf(suspended, [door('modifying', 'normal', false, 'frozen'), door('normal', 'normal')])).toEqual({ readiness: 'queued', queuedDoors: 2, failedDoors: 0 });
    expect(readinessOf(suspended, [door('modify_failed', 'normal', false, 'frozen')]).readiness).toBe('failed');
    // Resumed: an unfreeze still on its way is queued, a frozen user left behind too.
    expect(readinessOf({ ...issued, state: 'CHECKED_IN' }, [door('normal', 'normal', false, 'frozen')]).readiness).toBe('queued');
  });
});
