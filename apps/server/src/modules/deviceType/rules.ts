/**
 * A lock's rules (capacities, password digits, longest validity) from its device type row, for every
 * module that checks what a lock accepts (credentials) or drives a lock (the simulator's credentials).
 * Reads only; the table is written by this module's service.
 */
import { type CredentialRule, DEFAULT_LOCK_MODEL, type LockModel } from '@iot/contract';
import { and, eq, type SQL } from 'drizzle-orm';
import { deviceTypes, locks } from '../../db/schema.js';

/** Join condition: the device type a lock row names (same data centre, same model code). */
export const lockTypeJoin: SQL = and(eq(deviceTypes.tenantId, locks.tenantId), eq(deviceTypes.model, locks.model)) as SQL;

/** Columns to select beside a lock (left-joined on lockTypeJoin): null when its model has no row. */
export const lockRulesColumns = {
  typeId: deviceTypes.id,
  capacityUsers: deviceTypes.capacityUsers,
  capacityPasswords: deviceTypes.capacityPasswords,
  capacityCards: deviceTypes.capacityCards,
  capacityFingerprints: deviceTypes.capacityFingerprints,
  passwordMinDigits: deviceTypes.passwordMinDigits,
  passwordMaxDigits: deviceTypes.passwordMaxDigits,
  maxValidityDays: deviceTypes.maxValidityDays,
  connectivity: deviceTypes.connectivity,
  weekDaySchedulesPerUser: deviceTypes.weekDaySchedulesPerUser,
  yearDaySchedulesPerUser: deviceTypes.yearDaySchedulesPerUser,
  holidaySchedules: deviceTypes.holidaySchedules,
  credentialRulesSupport: deviceTypes.credentialRulesSupport,
};

export type LockRulesRow = { [K in keyof typeof lockRulesColumns]: (typeof lockRulesColumns)[K]['_']['data'] | null };

/** The rules of a joined row; DEFAULT_LOCK_MODEL when the lock's model has no device type. */
export function rulesOf(row: LockRulesRow): LockModel {
  if (row.typeId === null) return DEFAULT_LOCK_MODEL;
  return {
    capacity: {
      users: row.capacityUsers ?? 0, passwords: row.capacityPasswords ?? 0, cards: row.capacityCards ?? 0, fingerprints: row.capacityFingerprints ?? 0,
    },
    passwordDigits: { min: row.passwordMinDigits ?? 6, max: row.passwordMaxDigits ?? 9 },
    maxValidityDays: row.maxValidityDays ?? DEFAULT_LOCK_MODEL.maxValidityDays,
    access: {
      weekDaySchedulesPerUser: row.weekDaySchedulesPerUser ?? 0, yearDaySchedulesPerUser: row.yearDaySchedulesPerUser ?? 0,
      holidaySchedules: row.holidaySchedules ?? 0, credentialRulesSupport: (row.credentialRulesSupport ?? ['single']) as CredentialRule[],
    },
  };
}
