import type { AccessCapacity, Capacity, HolidayRule } from '@iot/contract';
import type { CardEntry, FingerprintEntry, LockUser, PasswordEntry } from './lock-state.js';

/**
 * What a lock holds in its credential tables, slot by slot (users with their user type and week-day /
 * year-day schedules), and its holiday schedules by index: a real lock keeps them across restarts, so a
 * simulated lock starts with what the platform last confirmed on it (demo.ts), not empty.
 */
export interface LockTables {
  users: [number, LockUser][];
  passwords: [number, PasswordEntry][];
  cards: [number, CardEntry][];
  fingerprints: [number, FingerprintEntry][];
  /** Matter HolidaySchedule by index. */
  holidays: [number, HolidayRule][];
}

/** What the simulator needs to impersonate one lock (issued by the server's modules/lockDevice/credentials.ts). */
export interface SimulatedDevice {
  /** 15 digits; also the MQTT client id and username. */
  imei: string;
  /** Device secret in clear (MQTT password). */
  secret: string;
  /** The lock's offline-code key, 64 hex digits (derived by the platform, shared at registration); absent: no offline codes. */
  offlineCodeKey?: string;
  tenantId: number;
  model: string;
  /** As the platform last heard it; empty (a lock registered but never heard from): lock.ts FACTORY_FIRMWARE. */
  firmwareVersion: string;
  /** Reporting interval, s. */
  heartbeatIntervalS: number;
  /** Highest uplink seq the platform has stored; null when none. The next uplink uses lastSeq + 1. */
  lastSeq: number | null;
  /** Slots per credential table, from the lock's device type (platform table device_types); default: the contract's rules of `model`. */
  capacity?: Capacity;
  /** Schedules per user and holiday schedules, from the lock's device type; default: the contract's rules of `model`. */
  access?: AccessCapacity;
  /** Last reported battery, %; null when never reported. */
  battery: number | null;
  /**
   * False for an NB-IoT lock in power-saving mode: it sleeps between uplinks (sleep.ts). True or
   * undefined: it stays connected (mains-powered / Wi-Fi, or callers that do not model sleep).
   */
  alwaysOnline?: boolean;
  /** The credential tables it starts with (default: empty, a lock fresh from the factory). */
  tables?: LockTables;
}

/** Optional logger (pino-compatible subset). */
export interface SimulatorLog {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  debug?(fields: object, message?: string): void;
}

/** A source of uniform numbers in [0, 1), like Math.random. */
export type Random = () => number;
