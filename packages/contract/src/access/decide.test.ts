import { describe, expect, it } from 'vitest';
import { type AccessQuery, type AccessUser, decideAccess, holidayState, localTime } from './decide.js';
import { maskOfDays } from './matter.js';

/** 2026-11-23 is a Monday; 09:30 in China Standard Time is 01:30 UTC. */
const MONDAY_0930 = Date.parse('2026-11-23T09:30:00+08:00');
const HOUR = 3_600_000;
const cleaner: AccessUser = {
  userType: 'weekDayScheduleUser', frozen: false, yearDay: [],
  weekDay: [{ daysMask: maskOfDays(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']), startMinute: 9 * 60, endMinute: 12 * 60 }],
};
const ask = (at: number, user: AccessUser | undefined, extra: Partial<AccessQuery> = {}) => decideAccess({ at, via: 'local', credential: {}, user, holidays: [], ...extra });

describe('decideAccess (Matter DoorLock rules)', () => {
  it('reads local time in China Standard Time', () => {
    expect(localTime(MONDAY_0930)).toMatchObject({ day: 'monday', minute: 570 });
    expect(localTime(Date.parse('2026-11-22T23:59:00+08:00'))).toMatchObject({ day: 'sunday', minute: 1439 });
  });

  it('lets a week-day schedule user in only inside the schedule', () => {
    expect(ask(MONDAY_0930, cleaner)).toMatchObject({ allowed: true });
    expect(ask(MONDAY_0930 + 3 * HOUR, cleaner)).toMatchObject({ allowed: false, reason: 'outsideSchedule' });
    expect(ask(MONDAY_0930 - 2 * 24 * HOUR, cleaner)).toMatchObject({ allowed: false, reason: 'outsideSchedule' }); // Saturday
    expect(ask(MONDAY_0930, { ...cleaner, weekDay: [] })).toMatchObject({ allowed: false, reason: 'outsideSchedule' });
  });

  it('needs both kinds for a schedule-restricted user holding both, either kind alone otherwise', () => {
    const year = { start: MONDAY_0930 - HOUR, end: MONDAY_0930 + HOUR };
    const both: AccessUser = { ...cleaner, userType: 'scheduleRestrictedUser', yearDay: [year] };
    expect(ask(MONDAY_0930, both)).toMatchObject({ allowed: true });
    expect(ask(MONDAY_0930 + 24 * HOUR, both)).toMatchObject({ allowed: false, reason: 'outsideSchedule' });
    expect(ask(MONDAY_0930 + 24 * HOUR, { ...both, yearDay: [] })).toMatchObject({ allowed: true });
  });

  it('applies holiday operating modes and 调休 working days', () => {
    const day = { start: MONDAY_0930 - 9.5 * HOUR, end: MONDAY_0930 + 14.5 * HOUR };
    const unrestricted: AccessUser = { userType: 'unrestrictedUser', frozen: false, weekDay: [], yearDay: [] };
    expect(ask(MONDAY_0930, unrestricted, { holidays: [{ ...day, operatingMode: 'vacation' }] })).toMatchObject({ allowed: false, reason: 'operatingMode' });
    expect(ask(MONDAY_0930, { ...unrestricted, userType: 'programmingUser' }, { holidays: [{ ...day, operatingMode: 'vacation' }] })).toMatchObject({ allowed: true });
    expect(ask(MONDAY_0930, undefined, { credential: { used: true }, holidays: [{ ...day, operatingMode: 'passage' }] })).toMatchObject({ allowed: true });
    expect(decideAccess({ at: MONDAY_0930, via: 'remote', credential: {}, user: unrestricted, holidays: [{ ...day, operatingMode: 'noRemoteLockUnlock' }] }))
      .toMatchObject({ allowed: false, reason: 'operatingMode' });
    expect(holidayState([{ ...day, operatingMode: 'passage' }, { ...day, operatingMode: 'privacy' }], MONDAY_0930).operatingMode).toBe('privacy');
    // Saturday 2026-11-28 works as a Monday: the cleaner may come.
    const saturday = MONDAY_0930 + 5 * 24 * HOUR;
    expect(ask(saturday, cleaner)).toMatchObject({ allowed: false });
    expect(ask(saturday, cleaner, { holidays: [{ start: saturday - HOUR, end: saturday + HOUR, operatingMode: 'normal', worksAs: 'monday' }] })).toMatchObject({ allowed: true });
  });

  it('implements the user types: forced, non-access, remote-only, expiring', () => {
    const base: AccessUser = { userType: 'forcedUser', frozen: false, weekDay: [], yearDay: [] };
    expect(ask(MONDAY_0930, base)).toEqual({ allowed: true, operatingMode: 'normal', duress: true });
    expect(ask(MONDAY_0930, { ...base, userType: 'nonAccessUser' })).toMatchObject({ allowed: false, reason: 'nonAccessUser' });
    expect(ask(MONDAY_0930, { ...base, userType: 'remoteOnlyUser' })).toMatchObject({ allowed: false, reason: 'remoteOnly' });
    const expiring: AccessUser = { ...base, userType: 'expiringUser', expiringMinutes: 120, firstUsedAt: MONDAY_0930 };
    expect(ask(MONDAY_0930 + 119 * 60_000, expiring)).toMatchObject({ allowed: true, duress: false });
    expect(ask(MONDAY_0930 + 120 * 60_000, expiring)).toMatchObject({ allowed: false, reason: 'expired' });
  });
});
