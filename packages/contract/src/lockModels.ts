/**
 * ZIGUANG lock models (issue #4): slot capacity of each credential table, password digit rules and the
 * longest validity window a lock accepts. One source of truth for the server's checks and the simulated
 * locks (apps/simulator lock-state.ts).
 */

/** Slots per credential table of a lock. */
export interface Capacity {
  users: number;
  passwords: number;
  cards: number;
  fingerprints: number;
}
export type CapacityTable = keyof Capacity;
export const CAPACITY_TABLES = ['users', 'passwords', 'cards', 'fingerprints'] as const satisfies readonly CapacityTable[];

export interface LockModel {
  capacity: Capacity;
  /** Password length in digits, inclusive bounds; 6-9 unless the model says otherwise. */
  passwordDigits: { min: number; max: number };
  /** Longest validity window of a lock user or a temporary password, days. */
  maxValidityDays: number;
}

/** Password digit bounds of a model that does not state its own. */
export const DEFAULT_PASSWORD_DIGITS = { min: 6, max: 9 } as const;

/** Known models (ZG-NB100 entry level ... ZG-NB300 flagship). */
export const LOCK_MODELS: Record<string, LockModel> = {
  'ZG-NB100': { capacity: { users: 50, passwords: 50, cards: 50, fingerprints: 20 }, passwordDigits: { ...DEFAULT_PASSWORD_DIGITS }, maxValidityDays: 365 },
  'ZG-NB200': { capacity: { users: 100, passwords: 100, cards: 100, fingerprints: 50 }, passwordDigits: { ...DEFAULT_PASSWORD_DIGITS }, maxValidityDays: 730 },
  'ZG-NB300': { capacity: { users: 200, passwords: 200, cards: 200, fingerprints: 100 }, passwordDigits: { min: 6, max: 12 }, maxValidityDays: 3650 },
};

/** What a model not in LOCK_MODELS is assumed to be. */
export const DEFAULT_LOCK_MODEL: LockModel = {
  capacity: { users: 100, passwords: 100, cards: 100, fingerprints: 50 },
  passwordDigits: { ...DEFAULT_PASSWORD_DIGITS },
  maxValidityDays: 365,
};

/** The rules of a model (DEFAULT_LOCK_MODEL for unknown ones). */
export function lockModel(model: string | null | undefined): LockModel {
  return (model ? LOCK_MODELS[model] : undefined) ?? DEFAULT_LOCK_MODEL;
}

/** Longest validity window of a model, ms. */
export function maxValidityMs(model: string | null | undefined): number {
  return lockModel(model).maxValidityDays * 86_400_000;
}

/** True when `digits` are only digits and of a length the model accepts. */
export function passwordFits(model: string | null | undefined, digits: string): boolean {
  const { min, max } = lockModel(model).passwordDigits;
  return /^\d+$/.test(digits) && digits.length >= min && digits.length <= max;
}
