/**
 * Whether a lock lets someone in at a time, by the Matter DoorLock rules (docs/access-schedules.md):
 * the one function the simulated lock decides with and the platform's "who can open door X at T"
 * answers with, so the two agree by construction. Pure: times are ms since epoch; week-day schedules
 * are read in the lock's local time (LOCK_UTC_OFFSET_MINUTES, China Standard Time, no DST).
 */
import { type AccessRefusal, type OperatingMode, OPERATING_MODE_PRECEDENCE, type UserType, WEEK_DAYS, type WeekDay } from './matter.js';

/** ZIGUANG locks keep China Standard Time (UTC+8, no daylight saving): minutes east of UTC. */
export const LOCK_UTC_OFFSET_MINUTES = 480;
const DAY_MS = 86_400_000;

/** A WeekDaySchedule (Matter 5.2.10.14): days (DaysMaskMap) and a start and end on those days, minutes since local midnight (end exclusive). */
export interface WeekDayRule {
  daysMask: number;
  startMinute: number;
  endMinute: number;
}
/** A YearDaySchedule (Matter 5.2.10.17): from / to, ms since epoch (end exclusive). */
export interface YearDayRule {
  start: number;
  end: number;
}
/** A HolidaySchedule the lock holds: from / to (ms, end exclusive), its operating mode, or a 调休 working day (`worksAs`). */
export interface HolidayRule {
  start: number;
  end: number;
  operatingMode: OperatingMode;
  /** ZIGUANG extension (not in Matter): a working day on a weekend; week-day schedules run as on this day. */
  worksAs?: WeekDay;
}

/** The lock user a credential belongs to, as the lock knows it. */
export interface AccessUser {
  userType: UserType;
  frozen: boolean;
  validFrom?: number;
  validTo?: number;
  weekDay: readonly WeekDayRule[];
  yearDay: readonly YearDayRule[];
  /** expiringUser: minutes of access after the first use, and the first use (ms) if any. */
  expiringMinutes?: number;
  firstUsedAt?: number;
}

/** The credential presented. */
export interface AccessCredential {
  validFrom?: number;
  validTo?: number;
  /** A one-time password already used. */
  used?: boolean;
}

export interface AccessQuery {
  at: number;
  /** `local`: keypad, card or finger at the door; `remote`: a remote unlock command. */
  via: 'local' | 'remote';
  credential: AccessCredential;
  /** undefined: a credential without a lock user (an unassigned temporary password). */
  user?: AccessUser;
  holidays: readonly HolidayRule[];
}

export type AccessDecision =
  | { allowed: true; operatingMode: OperatingMode; duress: boolean }
  | { allowed: false; operatingMode: OperatingMode; reason: AccessRefusal };

const inWindow = (at: number, from?: number, to?: number) => (from === undefined || at >= from) && (to === undefined || at < to);

/** Local day of the week and minute of the day of `at` in the lock's zone. */
export function localTime(at: number): { day: WeekDay; minute: number; dayStart: number } {
  const local = at + LOCK_UTC_OFFSET_MINUTES * 60_000;
  const days = Math.floor(local / DAY_MS);
  return { day: WEEK_DAYS[(((days + 4) % 7) + 7) % 7] as WeekDay, minute: Math.floor((local - days * DAY_MS) / 60_000), dayStart: days * DAY_MS - LOCK_UTC_OFFSET_MINUTES * 60_000 };
}

/** The holiday rules in force at `at`: the winning operating mode and a 调休 working day, if any. */
export function holidayState(holidays: readonly HolidayRule[], at: number): { operatingMode: OperatingMode; worksAs?: WeekDay } {
  let operatingMode: OperatingMode = 'normal';
  let worksAs: WeekDay | undefined;
  for (const rule of holidays) {
    if (!inWindow(at, rule.start, rule.end)) continue;
    if (rule.worksAs) worksAs = rule.worksAs;
    if (OPERATING_MODE_PRECEDENCE.indexOf(rule.operatingMode) > OPERATING_MODE_PRECEDENCE.indexOf(operatingMode)) operatingMode = rule.operatingMode;
  }
  return { operatingMode, ...(worksAs ? { worksAs } : {}) };
}

/** True when a week-day rule covers `at` (on a 调休 working day, as on `worksAs`). */
export function weekDayCovers(rule: WeekDayRule, at: number, worksAs?: WeekDay): boolean {
  const { day, minute } = localTime(at);
  const bit = WEEK_DAYS.indexOf(worksAs ?? day);
  return ((rule.daysMask >> bit) & 1) === 1 && minute >= rule.startMinute && minute < rule.endMinute;
}

/** Matter 5.2.6.18: schedule users need a covering schedule of their kind(s); no schedule denies. */
function scheduleAllows(user: AccessUser, at: number, worksAs?: WeekDay): boolean {
  const week = user.weekDay.some((rule) => weekDayCovers(rule, at, worksAs));
  const year = user.yearDay.some((rule) => inWindow(at, rule.start, rule.end));
  switch (user.userType) {
    case 'weekDayScheduleUser': return week;
    case 'yearDayScheduleUser': return year;
    case 'scheduleRestrictedUser':
      if (user.weekDay.length === 0) return year;
      if (user.yearDay.length === 0) return week;
      return week && year;
    default: return true;
  }
}

/**
 * Decides one attempt (order: operating mode passage / privacy, credential window and use, user
 * status and window, vacation and remote-only rules, user type, expiry after first use, schedules).
 * A forcedUser is let in with `duress` (the lock raises the alarm silently). Dual credential rules and
 * a disposable user's deletion are the lock's bookkeeping around this decision.
 */
export function decideAccess(query: AccessQuery): AccessDecision {
  const { at, via, credential, user } = query;
  const { operatingMode, worksAs } = holidayState(query.holidays, at);
  const refuse = (reason: AccessRefusal): AccessDecision => ({ allowed: false, operatingMode, reason });
  if (operatingMode === 'passage' && via === 'local') return { allowed: true, operatingMode, duress: false };
  if (operatingMode === 'privacy') return refuse('operatingMode');
  if (operatingMode === 'noRemoteLockUnlock' && via === 'remote') return refuse('operatingMode');
  if (credential.used) return refuse('used');
  if (!inWindow(at, credential.validFrom, credential.validTo)) return refuse(credential.validFrom !== undefined && at < credential.validFrom ? 'notYetValid' : 'expired');
  if (!user) return operatingMode === 'vacation' && via === 'local' ? refuse('operatingMode') : { allowed: true, operatingMode, duress: false };
  if (user.frozen) return refuse('frozen');
  if (!inWindow(at, user.validFrom, user.validTo)) return refuse(user.validFrom !== undefined && at < user.validFrom ? 'notYetValid' : 'expired');
  if (operatingMode === 'vacation' && via === 'local' && user.userType !== 'programmingUser') return refuse('operatingMode');
  if (user.userType === 'nonAccessUser') return refuse('nonAccessUser');
  if (user.userType === 'remoteOnlyUser' && via === 'local') return refuse('remoteOnly');
  if (user.userType === 'expiringUser' && user.firstUsedAt !== undefined && at >= user.firstUsedAt + (user.expiringMinutes ?? 0) * 60_000) return refuse('expired');
  if (!scheduleAllows(user, at, worksAs)) return refuse('outsideSchedule');
  return { allowed: true, operatingMode, duress: user.userType === 'forcedUser' };
}
