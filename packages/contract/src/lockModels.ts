/**
 * ZIGUANG lock models: slot capacity of each credential table, password digit rules and the
 * longest validity window a lock accepts. Device types are data (table `device_types`,
 * page 设备类型): LOCK_MODELS are the seed rows every data centre starts with (LOCK_TYPE_SEEDS), and
 * DEFAULT_LOCK_MODEL is what a lock whose model has no row is assumed to be.
 */
import type { CredentialRule } from './access/matter.js';
import type { OpenMethod } from './protocol/index.js';

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
  /** Schedules and credential rules the lock supports (Matter DoorLock attributes). */
  access: AccessCapacity;
}

/**
 * Matter DoorLock attributes NumberOfWeekDaySchedulesSupportedPerUser, NumberOfYearDaySchedulesSupportedPerUser,
 * NumberOfHolidaySchedulesSupported and CredentialRulesSupport.
 */
export interface AccessCapacity {
  weekDaySchedulesPerUser: number;
  yearDaySchedulesPerUser: number;
  holidaySchedules: number;
  credentialRulesSupport: CredentialRule[];
}

/** What a device type supports unless it says otherwise (also the migration's column defaults). */
export const DEFAULT_ACCESS_CAPACITY: AccessCapacity = { weekDaySchedulesPerUser: 7, yearDaySchedulesPerUser: 4, holidaySchedules: 16, credentialRulesSupport: ['single'] };

/** Password digit bounds of a model that does not state its own. */
export const DEFAULT_PASSWORD_DIGITS = { min: 6, max: 9 } as const;

/** Known models (ZG-NB100 entry level ... ZG-NB300 flagship; ZG-4G300: the flagship on 4G LTE Cat.1, always online). */
export const LOCK_MODELS: Record<string, LockModel> = {
  'ZG-NB100': { capacity: { users: 50, passwords: 50, cards: 50, fingerprints: 20 }, passwordDigits: { ...DEFAULT_PASSWORD_DIGITS }, maxValidityDays: 365, access: { ...DEFAULT_ACCESS_CAPACITY, weekDaySchedulesPerUser: 4, yearDaySchedulesPerUser: 2, holidaySchedules: 8 } },
  'ZG-NB200': { capacity: { users: 100, passwords: 100, cards: 100, fingerprints: 50 }, passwordDigits: { ...DEFAULT_PASSWORD_DIGITS }, maxValidityDays: 730, access: { ...DEFAULT_ACCESS_CAPACITY } },
  'ZG-NB300': { capacity: { users: 200, passwords: 200, cards: 200, fingerprints: 100 }, passwordDigits: { min: 6, max: 12 }, maxValidityDays: 3650, access: { ...DEFAULT_ACCESS_CAPACITY, holidaySchedules: 32, credentialRulesSupport: ['single', 'dual'] } },
  'ZG-4G300': { capacity: { users: 200, passwords: 200, cards: 200, fingerprints: 100 }, passwordDigits: { min: 6, max: 12 }, maxValidityDays: 3650, access: { ...DEFAULT_ACCESS_CAPACITY, holidaySchedules: 32, credentialRulesSupport: ['single', 'dual'] } },
};

/** What a seeded device type adds to a model's rules. */
export interface LockTypeSeed {
  connectivity: 'nbiotSleeping' | 'alwaysOnline';
  /** s */
  heartbeatIntervalS: number;
  /** Heartbeat intervals the lock accepts, s. */
  heartbeatRangeS: { min: number; max: number };
  unlockMethods: OpenMethod[];
  firmwareFamily: string;
}

/**
 * The device-type rows every data centre starts with: LOCK_MODELS plus connectivity and unlock methods.
 * The ZG-NB models are NB-IoT locks in power saving (PSM): reachable only just after their own uplinks.
 * ZG-4G300 is on 4G LTE Cat.1 (3GPP UE category 1, no PSM) and stays attached: always online, so it
 * offers remote unlock.
 */
export const LOCK_TYPE_SEEDS: Record<string, LockTypeSeed> = {
  'ZG-NB100': { connectivity: 'nbiotSleeping', heartbeatIntervalS: 300, heartbeatRangeS: { min: 10, max: 86_400 }, unlockMethods: ['password', 'card', 'app', 'mechanicalKey'], firmwareFamily: 'ZG-NB' },
  'ZG-NB200': { connectivity: 'nbiotSleeping', heartbeatIntervalS: 300, heartbeatRangeS: { min: 10, max: 86_400 }, unlockMethods: ['password', 'card', 'fingerprint', 'app', 'mechanicalKey'], firmwareFamily: 'ZG-NB' },
  'ZG-NB300': { connectivity: 'nbiotSleeping', heartbeatIntervalS: 300, heartbeatRangeS: { min: 10, max: 86_400 }, unlockMethods: ['password', 'card', 'fingerprint', 'app', 'mechanicalKey', 'remote'], firmwareFamily: 'ZG-NB' },
  'ZG-4G300': { connectivity: 'alwaysOnline', heartbeatIntervalS: 300, heartbeatRangeS: { min: 10, max: 86_400 }, unlockMethods: ['password', 'card', 'fingerprint', 'app', 'mechanicalKey', 'remote'], firmwareFamily: 'ZG-4G' },
};

/** The seeded always-online lock model (4G LTE Cat.1), the type of the demo's always-online simulated locks. */
export const ALWAYS_ONLINE_LOCK_MODEL = 'ZG-4G300';

/** What a model without a device-type row is assumed to be. */
export const DEFAULT_LOCK_MODEL: LockModel = {
  capacity: { users: 100, passwords: 100, cards: 100, fingerprints: 50 },
  passwordDigits: { ...DEFAULT_PASSWORD_DIGITS },
  maxValidityDays: 365,
  access: { ...DEFAULT_ACCESS_CAPACITY },
};

/** The rules of a model (DEFAULT_LOCK_MODEL for unknown ones). */
export function lockModel(model: string | null | undefined): LockModel {
  return (model ? LOCK_MODELS[model] : undefined) ?? DEFAULT_LOCK_MODEL;
}
