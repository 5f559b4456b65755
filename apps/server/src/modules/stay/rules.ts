/**
 * Rules of a stay (docs/stays.md): the locks of a room, the lead time from their heartbeat
 * intervals, the doors' validity window, overlaps and state transitions. Times are ms since epoch.
 */
import { STAY_ACTIVE_STATES, STAY_ALERT_BEFORE_MS, STAY_LEAD_MARGIN_MS, STAY_TRANSITIONS, type StayState } from '@iot/contract';
import { and, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { locks, stays } from '../../db/schema.js';
import { conflictError, fieldError } from '../../http/api-error.js';

export interface Room {
  building: string;
  floor: string;
  room: string;
}

/**
 * The doors of a room in the tenant (RLS): its own registered, not decommissioned locks, then the common
 * doors serving it (its building's `building` doors, its floor's `floor` doors; docs/stays.md "Common
 * doors"), each by id; 400 on `field` when the room has no lock of its own.
 */
export async function roomLocks(tx: Executor, room: Room, field = 'body.room'): Promise<{ id: number; heartbeatIntervalS: number }[]> {
  const registered = and(isNull(locks.decommissionedAt), isNull(locks.imeiReleasedAt));
  const own = await tx.select({ id: locks.id, heartbeatIntervalS: locks.heartbeatIntervalS }).from(locks)
    .where(and(eq(locks.building, room.building), eq(locks.floor, room.floor), eq(locks.room, room.room), registered))
    .orderBy(locks.id);
  if (own.length === 0) throw fieldError(field, '该房间没有门锁', 'This room has no lock');
  const common = await tx.select({ id: locks.id, heartbeatIntervalS: locks.heartbeatIntervalS }).from(locks)
    .where(and(eq(locks.building, room.building), or(eq(locks.commonDoor, 'building'), and(eq(locks.commonDoor, 'floor'), eq(locks.floor, room.floor))), registered))
    .orderBy(locks.id);
  const ownIds = new Set(own.map((lock) => lock.id));
  return [...own, ...common.filter((lock) => !ownIds.has(lock.id))];
}

/**
 * The lead time of a room, ms: its longest heartbeat interval (a sleeping NB-IoT lock takes a downlink
 * only when it wakes, at least once an interval) plus STAY_LEAD_MARGIN_MS.
 */
export const leadTimeMs = (roomLockRows: readonly { heartbeatIntervalS: number }[]) =>
  Math.max(0, ...roomLockRows.map((lock) => lock.heartbeatIntervalS)) * 1000 + STAY_LEAD_MARGIN_MS;

/** When the stays job issues the credentials: check-in - 1 h (the readiness check) - the lead time. */
export const issueDueAt = (checkInAt: number, leadMs: number) => new Date(checkInAt - STAY_ALERT_BEFORE_MS - leadMs);

/** The doors' validity window of a stay: check-in - buffer before .. check-out + buffer after. */
export function doorWindow(stay: { checkInAt: Date; checkOutAt: Date; bufferBeforeMinutes: number; bufferAfterMinutes: number }) {
  return { validFrom: stay.checkInAt.getTime() - stay.bufferBeforeMinutes * 60_000, validTo: stay.checkOutAt.getTime() + stay.bufferAfterMinutes * 60_000 };
}

/**
 * Serialises bookings of one room (a transaction-scoped advisory lock on its name), then refuses an
 * active stay of the room overlapping [checkIn, checkOut) other than `exceptId`: 409 on body.checkInAt.
 * `serialise` false (a dry run that books nothing) skips the lock.
 */
export async function checkOverlap(tx: Executor, room: Room, checkInAt: Date, checkOutAt: Date, exceptId?: number, serialise = true): Promise<void> {
  if (serialise) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${JSON.stringify(['stay', room.building, room.floor, room.room])}))`);
  const [other] = await tx.select({ id: stays.id }).from(stays).where(and(
    eq(stays.building, room.building), eq(stays.floor, room.floor), eq(stays.room, room.room),
    inArray(stays.state, [...STAY_ACTIVE_STATES]), lt(stays.checkInAt, checkOutAt), gt(stays.checkOutAt, checkInAt),
    ...(exceptId === undefined ? [] : [ne(stays.id, exceptId)]),
  )).limit(1);
  if (other) throw conflictError('body.checkInAt', `该房间在此时段已有入住（#${other.id}）`, `The room already has a stay in this period (#${other.id})`);
}

/** 409 on body.id unless `from` may go to `to` (contract STAY_TRANSITIONS). */
export function checkTransition(from: StayState, to: StayState): void {
  if (STAY_TRANSITIONS[from].includes(to)) return;
  throw conflictError('body.id', `入住状态为 ${from}，不能改为 ${to}`, `A stay in state ${from} cannot become ${to}`);
}

/** 400 on body.checkOutAt when the stay would end in the past or last longer than `maxDays`. */
export function checkTimes(checkInAt: number, checkOutAt: number, maxDays: number, now: number): void {
  if (checkOutAt <= now) throw fieldError('body.checkOutAt', '退房时间必须在将来', 'Check-out must be in the future');
  if (checkOutAt - checkInAt > maxDays * 86_400_000) throw fieldError('body.checkOutAt', `入住不能超过 ${maxDays} 天`, `A stay may not exceed ${maxDays} days`);
}
