/**
 * What a simulated ZIGUANG lock keeps in its own memory and what downlinks change: configuration,
 * clock offset and the credential tables (lock users, passwords, cards, fingerprints) with a slot
 * capacity per model, and each user's Matter user type and schedules and the lock's holiday
 * schedules. Transport-free; commands.ts and schedules.ts map downlinks onto it. Credential management
 * reads these tables to compare with the platform.
 */
import { type AccessCapacity, type Capacity, type CredentialRule, type HolidayRule, lockModel, type protocol, type UserType, type WeekDayRule, type YearDayRule } from '@iot/contract';
import type { OfflineCodes } from './offline-codes.js';
import type { LockTables } from './types.js';

export type { Capacity };

/** Configuration a lock starts with (protocol.lockConfig fields; heartbeat interval from the device). */
export const DEFAULT_CONFIG = { volume: 60, autoLockS: 5, wrongAttemptLimit: 5, language: 'zh-CN' } as const satisfies protocol.LockConfig;

export interface LockUser {
  name?: string;
  frozen: boolean;
  /** ms since epoch; validTo exclusive. */
  validFrom?: number;
  validTo?: number;
  /** Matter UserType and CredentialRule. */
  userType: UserType;
  credentialRule: CredentialRule;
  /** expiringUser: minutes after the first use, and the first use (lock clock, ms). */
  expiringMinutes?: number;
  firstUsedAt?: number;
  /** Week-day and year-day schedules by index. */
  weekDay: Map<number, WeekDayRule>;
  yearDay: Map<number, YearDayRule>;
}
export interface PasswordEntry {
  /** Digits in clear: the lock itself must know them. */
  digits: string;
  userSlot?: number;
  temporary: boolean;
  oneTime: boolean;
  validFrom?: number;
  validTo?: number;
  /** A one-time password already used to open (open-attempt.ts). */
  used?: boolean;
}
export interface CardEntry {
  /** Hex, as the lock reads it (byte order already corrected). */
  cardNumber: string;
  userSlot?: number;
}
export interface FingerprintEntry {
  userSlot: number;
}

export type TableName = keyof Capacity;

export class LockState {
  readonly capacity: Capacity;
  config: protocol.LockConfig;
  /** Lock clock minus platform clock, ms (clockSync sets it to 0). */
  clockOffsetMs: number;
  readonly users = new Map<number, LockUser>();
  readonly passwords = new Map<number, PasswordEntry>();
  readonly cards = new Map<number, CardEntry>();
  readonly fingerprints = new Map<number, FingerprintEntry>();
  /** Holiday schedules by index (Matter HolidaySchedule). */
  readonly holidays = new Map<number, HolidayRule>();
  /** A dual-rule user's credential waiting for a second person (open-attempt.ts). */
  pendingDual: { userSlot: number; at: number } | undefined;
  /** Offline codes: present when the platform shared the lock's key. */
  offlineCodes: OfflineCodes | undefined;
  /** Schedules per user and holiday schedules the lock has room for (its device type). */
  readonly access: AccessCapacity;

  /**
   * `heartbeatIntervalS`: the device's reporting interval, s; `clockOffsetMs`: initial drift, ms;
   * `capacity`: slots per table from the lock's device type (default: the contract's rules of `model`).
   */
  constructor(model: string, heartbeatIntervalS: number, clockOffsetMs = 0, capacity?: Capacity, access?: AccessCapacity) {
    this.capacity = capacity ?? lockModel(model).capacity;
    this.access = access ?? lockModel(model).access;
    // lockConfig allows 10 s and more; faster simulated locks (tests) leave it out.
    this.config = heartbeatIntervalS >= 10 ? { ...DEFAULT_CONFIG, heartbeatIntervalS } : { ...DEFAULT_CONFIG };
    this.clockOffsetMs = clockOffsetMs;
  }

  /**
   * Fills the credential tables, the users' schedules and the holiday schedules with `tables` (what the
   * lock holds from before); slots and schedule indexes outside the capacity are skipped.
   */
  load(tables: LockTables): void {
    for (const name of ['passwords', 'cards', 'fingerprints'] as const) {
      const table = this[name] as Map<number, unknown>;
      for (const [slot, entry] of tables[name]) if (this.fits(name, slot)) table.set(slot, { ...entry });
    }
    const within = <T>(rules: Map<number, T>, limit: number) => new Map([...rules].filter(([index]) => index >= 0 && index < limit));
    for (const [slot, user] of tables.users) {
      if (this.fits('users', slot)) {
        this.users.set(slot, { ...user, weekDay: within(user.weekDay, this.access.weekDaySchedulesPerUser), yearDay: within(user.yearDay, this.access.yearDaySchedulesPerUser) });
      }
    }
    for (const [index, rule] of within(new Map(tables.holidays), this.access.holidaySchedules)) this.holidays.set(index, { ...rule });
  }

  /** The lock's own clock, ms since epoch. */
  now(platformNow: number = Date.now()): number {
    return platformNow + this.clockOffsetMs;
  }

  /** True when `slot` is within the table's capacity (0-based). */
  fits(table: TableName, slot: number): boolean {
    return Number.isInteger(slot) && slot >= 0 && slot < this.capacity[table];
  }

  /** The lowest free slot of a table, or undefined when full. */
  freeSlot(table: TableName): number | undefined {
    const used = this[table] as Map<number, unknown>;
    for (let slot = 0; slot < this.capacity[table]; slot++) if (!used.has(slot)) return slot;
    return undefined;
  }
}
