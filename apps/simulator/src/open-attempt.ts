/**
 * Someone at the door: the lock checks a typed password, a presented card or a
 * placed finger against what it holds (lock-state.ts) and decides by the Matter DoorLock rules
 * (contract decideAccess: windows, frozen users, user types, week-day / year-day schedules, the holiday
 * schedule in force). Success names the credential's slot and its user slot; failure says why.
 * Around the decision the lock keeps its own books: a one-time password works once, an expiring user's
 * first use starts its timer, a forced user opens and raises the duress alarm (silently: nothing at
 * the door differs), a disposable user is deleted after its one use, and a user under the dual
 * credential rule needs a second person's credential within DUAL_CREDENTIAL_WINDOW_MS. A typed code it
 * does not hold may be an offline code (offline-codes.ts). Times are the lock's clock, ms.
 */
import { type AccessRefusal, type AccessUser, DUAL_CREDENTIAL_WINDOW_MS, decideAccess, type HolidayRule, holidayState } from '@iot/contract';
import type { ActivityEvent } from './activity.js';
import type { LockState, LockUser } from './lock-state.js';

export type AttemptInput = (
  | { method: 'password'; password: string }
  | { method: 'card'; cardNumber: string }
  | { method: 'fingerprint'; fingerprintSlot: number }
) & {
  /** The lock's clock for this attempt (a controllable clock for demos and tests), ms; default its own. */
  at?: number;
};

export type AttemptReason = AccessRefusal;

export interface AttemptResult {
  success: boolean;
  reason: AttemptReason | null;
  slot: number | null;
  userSlot: number | null;
}

/** What the lock does besides answering: raise the duress alarm, report a disposable user deleted. */
export interface AttemptEffects {
  duress: boolean;
  /** The user slot the lock cleared after its one use. */
  disposedUserSlot?: number;
}

type Entry = { userSlot?: number; validFrom?: number; validTo?: number; oneTime?: boolean; used?: boolean };

/** The user as the shared decision reads it. */
export function accessUser(user: LockUser): AccessUser {
  return {
    userType: user.userType, frozen: user.frozen, validFrom: user.validFrom, validTo: user.validTo, weekDay: [...user.weekDay.values()],
    yearDay: [...user.yearDay.values()], expiringMinutes: user.expiringMinutes, firstUsedAt: user.firstUsedAt,
  };
}

/** The credential an input names, with its slot. */
function find(state: LockState, input: AttemptInput): { slot?: number; entry?: Entry } {
  if (input.method === 'password') {
    const [slot, entry] = [...state.passwords].find(([, e]) => e.digits === input.password) ?? [];
    return { slot, entry };
  }
  if (input.method === 'card') {
    const [slot, entry] = [...state.cards].find(([, e]) => e.cardNumber === input.cardNumber.toUpperCase()) ?? [];
    return { slot, entry };
  }
  const entry = state.fingerprints.get(input.fingerprintSlot);
  return entry ? { slot: input.fingerprintSlot, entry } : {};
}

/** Removes a user and everything it holds (Matter ClearUser). */
export function clearUser(state: LockState, userSlot: number): void {
  state.users.delete(userSlot);
  for (const table of ['passwords', 'cards', 'fingerprints'] as const) {
    for (const [slot, entry] of state[table] as Map<number, { userSlot?: number }>) if (entry.userSlot === userSlot) state[table].delete(slot);
  }
}

/** Decides an attempt at lock time `at`; updates the lock's books (see the module comment). */
export function attemptOpen(state: LockState, input: AttemptInput, at: number): { result: AttemptResult; effects: AttemptEffects } {
  const { slot, entry } = find(state, input);
  const userSlot = entry?.userSlot ?? null;
  const effects: AttemptEffects = { duress: false };
  const done = (success: boolean, reason: AttemptReason | null) => ({ result: { success, reason, slot: slot ?? null, userSlot }, effects });
  const holidays = [...state.holidays.values()];
  if (holidayState(holidays, at).operatingMode === 'passage') return done(true, null);
  if ((slot === undefined || !entry) && input.method === 'password' && state.offlineCodes) return offlineAttempt(state, input.password, at, holidays);
  if (slot === undefined || !entry) return done(false, 'unknown');
  const user = userSlot === null ? undefined : state.users.get(userSlot);
  if (userSlot !== null && !user) return done(false, 'unknown');
  const decision = decideAccess({ at, via: 'local', credential: entry, user: user && accessUser(user), holidays });
  if (!decision.allowed) return done(false, decision.reason);
  if (user && userSlot !== null && !secondPersonCompletes(state, user, userSlot, at)) return done(false, 'awaitingSecondCredential');
  if (entry.oneTime) entry.used = true;
  if (user?.userType === 'expiringUser' && user.firstUsedAt === undefined) user.firstUsedAt = at;
  effects.duress = decision.duress;
  if (user?.userType === 'disposableUser' && userSlot !== null) {
    clearUser(state, userSlot);
    effects.disposedUserSlot = userSlot;
  }
  return done(true, null);
}

/**
 * A typed code the lock's tables do not hold, checked as an offline code (offline-codes.ts): opens
 * within its window unless the operating mode forbids it; a one-time code only once.
 */
function offlineAttempt(state: LockState, code: string, at: number, holidays: HolidayRule[]): { result: AttemptResult; effects: AttemptEffects } {
  const match = state.offlineCodes?.match(code, at);
  const decision = match ? decideAccess({ at, via: 'local', credential: match, holidays }) : undefined;
  const refusal: AttemptReason | null = !decision ? 'unknown' : decision.allowed ? null : decision.reason;
  if (match && !refusal) state.offlineCodes?.markUsed(code, match);
  return { result: { success: refusal === null, reason: refusal, slot: null, userSlot: null }, effects: { duress: false } };
}

/**
 * The dual credential rule (two credentials of two users within 10 s): a dual-rule user's
 * credential alone waits for a second person; any other user's valid credential within the window
 * completes it, as does a dual-rule user's after another's. Returns true when the door may open now.
 */
function secondPersonCompletes(state: LockState, user: LockUser, userSlot: number, at: number): boolean {
  const pending = state.pendingDual;
  if (pending && pending.userSlot !== userSlot && at - pending.at <= DUAL_CREDENTIAL_WINDOW_MS) {
    state.pendingDual = undefined;
    return true;
  }
  if (user.credentialRule !== 'dual') return true;
  state.pendingDual = { userSlot, at };
  return false;
}

/**
 * The uplinks an attempt produces: its openRecord (with the refusal reason), then the silent duress
 * alarm of a forced user (Matter AlarmCode ForcedUser) and the LockUserChange of a disposed user.
 */
export function attemptEvents(method: AttemptInput['method'], lockTime: number, result: AttemptResult, effects: AttemptEffects): ActivityEvent[] {
  const events: ActivityEvent[] = [{ type: 'openRecord', data: {
    method, success: result.success, lockTime, ...(result.slot === null ? {} : { slot: result.slot }),
    ...(result.userSlot === null ? {} : { userSlot: result.userSlot }), ...(result.reason ? { refusal: result.reason } : {}),
  } }];
  if (effects.duress) events.push({ type: 'alarm', data: { kind: 'duress', cleared: false, ...(result.userSlot === null ? {} : { detail: `user ${result.userSlot}` }) } });
  if (effects.disposedUserSlot !== undefined) {
    events.push({ type: 'lockUserChange', data: { lockDataType: 'userIndex', dataOperationType: 'clear', operationSource: 'auto', userSlot: effects.disposedUserSlot } });
  }
  return events;
}
