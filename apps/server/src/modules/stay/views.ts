/**
 * Reading stays as contract records: guests (ID card masked), readiness computed on read
 * from the credential sync states (doors.ts readinessOf), the list with its filters, the detail with
 * every door, and today's not-ready stays for the front desk. Every function takes the caller's tenant
 * executor (row-level security confines it).
 */
import type { Page, StayDetail, StayRecord, StayState, stayListQuery } from '@iot/contract';
import { and, asc, desc, eq, exists, gt, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { locks, stayGuests, stays } from '../../db/schema.js';
import { containsPattern, iso } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';
import { doorStates, readinessOf } from './doors.js';

type StayRow = typeof stays.$inferSelect;

/** Records of `rows`, in their order. */
async function records(tx: Executor, rows: readonly StayRow[]): Promise<StayRecord[]> {
  const ids = rows.map((row) => row.id);
  const guests = ids.length ? await tx.select().from(stayGuests).where(inArray(stayGuests.stayId, ids)).orderBy(stayGuests.id) : [];
  const doors = await doorStates(tx, ids);
  return rows.map((row) => ({
    id: row.id, building: row.building, floor: row.floor, room: row.room, kind: row.kind as StayRecord['kind'], state: row.state as StayState,
    checkInAt: iso(row.checkInAt), checkOutAt: iso(row.checkOutAt), bufferBeforeMinutes: row.bufferBeforeMinutes, bufferAfterMinutes: row.bufferAfterMinutes,
    reference: row.reference,
    guests: guests.filter((guest) => guest.stayId === row.id).map((guest) => ({
      id: guest.id, name: guest.name, mobile: guest.mobile, idCardMasked: guest.idCardLast4 ? `${'*'.repeat(14)}${guest.idCardLast4}` : null,
      cardNumber: guest.cardNumber,
    })),
    issuedAt: iso(row.issuedAt), issueDueAt: iso(row.issueDueAt),
    ...readinessOf(row, doors.filter((door) => door.stayId === row.id)),
    createdBy: row.createdBy, createdAt: iso(row.createdAt),
  }));
}

/** The record of stay `id`; 404 otherwise. */
export async function stayRecord(tx: Executor, id: number): Promise<StayRecord> {
  const rows = await tx.select().from(stays).where(eq(stays.id, id));
  const [record] = await records(tx, rows);
  if (!record) throw new ApiError('NOT_FOUND');
  return record;
}

/** The record with every door (lock x guest) and its sync states. */
export async function stayDetail(tx: Executor, id: number): Promise<StayDetail> {
  const record = await stayRecord(tx, id);
  const doors = await doorStates(tx, [id]);
  const lockIds = [...new Set(doors.map((door) => door.lockId))];
  const names = new Map((lockIds.length ? await tx.select({ id: locks.id, name: locks.name, imei: locks.imei }).from(locks).where(inArray(locks.id, lockIds)) : []).map((lock) => [lock.id, lock]));
  const state = <T>(id: number | null, value: T | null) => (id === null ? null : (value ?? 'deleted'));
  return {
    ...record,
    doors: doors.map((door) => ({
      guestId: door.guestId, lockId: door.lockId, lockName: names.get(door.lockId)?.name ?? '', imei: names.get(door.lockId)?.imei ?? '', lockUserId: door.lockUserId, credentialId: door.credentialId,
      userState: state(door.lockUserId, door.userState) as StayDetail['doors'][number]['userState'],
      credentialState: state(door.credentialId, door.credentialState) as StayDetail['doors'][number]['credentialState'],
      cardCredentialId: door.cardCredentialId, cardState: state(door.cardCredentialId, door.cardState) as StayDetail['doors'][number]['cardState'],
      released: door.released,
    })),
  };
}

/** A page of stays, earliest check-in first; filters of contract stayListQuery. */
export async function listStays(tx: Executor, query: z.output<typeof stayListQuery>): Promise<Page<StayRecord>> {
  const where: SQL[] = [];
  if (query.state) where.push(eq(stays.state, query.state));
  for (const field of ['building', 'floor', 'room'] as const) if (query[field] !== undefined) where.push(eq(stays[field], query[field] as string));
  if (query.from) where.push(gt(stays.checkOutAt, new Date(query.from)));
  if (query.to) where.push(lt(stays.checkInAt, new Date(query.to)));
  if (query.guest) {
    const pattern = containsPattern(query.guest);
    const guest = tx.select({ one: sql`1` }).from(stayGuests).where(and(eq(stayGuests.stayId, stays.id), or(ilike(stayGuests.name, pattern), ilike(stayGuests.mobile, pattern))));
    where.push(or(exists(guest), ilike(stays.reference, pattern)) as SQL);
  }
  const condition = where.length ? and(...where) : undefined;
  const [count] = await tx.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(stays).where(condition);
  const rows = await tx.select().from(stays).where(condition).orderBy(asc(stays.checkInAt), desc(stays.id)).limit(query.size).offset((query.current - 1) * query.size);
  return { records: await records(tx, rows), total: count?.n ?? 0, current: query.current, size: query.size };
}

/** Booked or checked-in stays whose check-in falls on the data centre's day of `now` (zone `timeZone`) and that are not ready. */
export async function notReadyStays(tx: Executor, timeZone: string, now = Date.now()): Promise<StayRecord[]> {
  const at = new Date(now).toISOString();
  const dayStart = sql`(date_trunc('day', ${at}::timestamptz at time zone ${timeZone}) at time zone ${timeZone})`;
  const rows = await tx.select().from(stays).where(and(
    inArray(stays.state, ['BOOKED', 'CHECKED_IN']), sql`${stays.checkInAt} >= ${dayStart}`, sql`${stays.checkInAt} < ${dayStart} + interval '1 day'`,
  )).orderBy(asc(stays.checkInAt), asc(stays.id)).limit(1000);
  return (await records(tx, rows)).filter((record) => record.readiness !== 'ready');
}
