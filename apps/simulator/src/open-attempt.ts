/**
 * Someone at the door (issue #4): the lock checks a typed password, a presented card or a placed
 * finger against what it holds (lock-state.ts) and decides. Success names the credential's slot and
 * its user slot; failure says why. A one-time password works once. Times are the lock's clock, ms.
 */
import type { LockState } from './lock-state.js';

export type AttemptInput =
  | { method: 'password'; password: string }
  | { method: 'card'; cardNumber: string }
  | { method: 'fingerprint'; fingerprintSlot: number };

export type AttemptReason = 'unknown' | 'expired' | 'notYetValid' | 'frozen' | 'used';

export interface AttemptResult {
  success: boolean;
  reason: AttemptReason | null;
  slot: number | null;
  userSlot: number | null;
}

const inWindow = (at: number, from?: number, to?: number) => (from === undefined || at >= from) && (to === undefined || at < to);
const windowReason = (at: number, from?: number): AttemptReason => (from !== undefined && at < from ? 'notYetValid' : 'expired');

/** Decides an attempt at lock time `at`; marks a one-time password used on success. */
export function attemptOpen(state: LockState, input: AttemptInput, at: number): AttemptResult {
  let slot: number | undefined;
  let entry: { userSlot?: number; validFrom?: number; validTo?: number; oneTime?: boolean; used?: boolean } | undefined;
  if (input.method === 'password') [slot, entry] = [...state.passwords].find(([, e]) => e.digits === input.password) ?? [];
  else if (input.method === 'card') [slot, entry] = [...state.cards].find(([, e]) => e.cardNumber === input.cardNumber.toUpperCase()) ?? [];
  else [slot, entry] = state.fingerprints.has(input.fingerprintSlot) ? [input.fingerprintSlot, state.fingerprints.get(input.fingerprintSlot)] : [];
  if (slot === undefined || !entry) return { success: false, reason: 'unknown', slot: null, userSlot: null };
  const userSlot = entry.userSlot ?? null;
  const refuse = (reason: AttemptReason): AttemptResult => ({ success: false, reason, slot: slot as number, userSlot });
  if (entry.used) return refuse('used');
  if (!inWindow(at, entry.validFrom, entry.validTo)) return refuse(windowReason(at, entry.validFrom));
  if (userSlot !== null) {
    const user = state.users.get(userSlot);
    if (!user) return refuse('unknown');
    if (user.frozen) return refuse('frozen');
    if (!inWindow(at, user.validFrom, user.validTo)) return refuse(windowReason(at, user.validFrom));
  }
  if (entry.oneTime) entry.used = true;
  return { success: true, reason: null, slot, userSlot };
}
