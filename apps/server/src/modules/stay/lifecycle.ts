/**
 * Stays (contract api/stay.ts; tables stays, stay_guests, stay_doors, owned here): book,
 * edit, check in, check out, cancel, no-show, change room, suspend and resume a lease. Each change runs in the caller's tenant
 * transaction (with the endpoint's system-log row), makes the doors follow (doors.ts) and raises
 * `stay.changed` so the stays job looks at its due times again. ID card numbers and the guests' digits
 * are sealed with the secret box; `now` (ms) is injectable for tests.
 */
import { STAY_ACTIVE_STATES, STAY_MAX_DAYS, STAY_SUSPENDABLE_KINDS, type StayKind, type StayAddBody, type StayEditBody, type StayRecord, type StayState } from '@iot/contract';
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { stayGuests, stays } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { ApiError, conflictError } from '../../http/api-error.js';
import type { Actor } from '../credential/ops.js';
import { stayBuffersOf } from '../tenant/settings.js';
import { checkCards, setGuestCard } from './cards.js';
import { reconcileDoors } from './doors.js';
import { checkOverlap, checkTimes, checkTransition, issueDueAt, leadTimeMs, type Room, roomLocks } from './rules.js';
import { stayRecord } from './views.js';

type GuestInput = StayAddBody['guests'][number];
/** Digits of a guest's password: the shortest every device type accepts (contract DEFAULT_PASSWORD_DIGITS.min). */
const GUEST_DIGITS = 6;
const drawDigits = () => Array.from({ length: GUEST_DIGITS }, () => String(randomInt(10))).join('');

async function insertGuests(tx: Executor, actor: Actor, stayId: number, guests: readonly GuestInput[]): Promise<void> {
  await tx.insert(stayGuests).values(guests.map((guest) => ({
    tenantId: actor.tenantId, stayId, name: guest.name, mobile: guest.mobile, passwordEnc: actor.box.seal(drawDigits()),
    idCardEnc: guest.idCardNumber ? actor.box.seal(guest.idCardNumber.toUpperCase()) : null, idCardLast4: guest.idCardNumber?.slice(-4).toUpperCase() ?? null,
    cardNumber: guest.cardNumber?.toUpperCase() ?? null,
  })));
}

/** The stay of `id`, locked; 404 otherwise (another tenant's too). */
async function lockedStay(tx: Executor, id: number) {
  const [row] = await tx.select().from(stays).where(eq(stays.id, id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

async function settle(tx: Executor, actor: Actor, id: number, now: number): Promise<StayRecord> {
  await reconcileDoors(tx, actor, id, now);
  await emit(tx, 'stay.changed', { tenantId: actor.tenantId, stayId: id });
  return stayRecord(tx, id);
}

/**
 * Books a stay (see contract stayEndpoints.add; a buffer not given is the data centre's default, minutes):
 * 400 for a room without a lock or times out of range, 409 on an overlap.
 */
export async function addStay(tx: Executor, actor: Actor, body: StayAddBody, now = Date.now()): Promise<StayRecord> {
  const checkInAt = Date.parse(body.checkInAt);
  const checkOutAt = Date.parse(body.checkOutAt);
  checkTimes(checkInAt, checkOutAt, STAY_MAX_DAYS, now);
  const lockRows = await roomLocks(tx, body.room);
  await checkOverlap(tx, body.room, new Date(checkInAt), new Date(checkOutAt));
  await checkCards(tx, body.guests.map((guest) => guest.cardNumber), { checkInAt: new Date(checkInAt), checkOutAt: new Date(checkOutAt) });
  const defaults = await stayBuffersOf(tx, actor.tenantId);
  const [row] = await tx.insert(stays).values({
    tenantId: actor.tenantId, ...body.room, kind: body.kind, state: 'BOOKED', checkInAt: new Date(checkInAt), checkOutAt: new Date(checkOutAt),
    bufferBeforeMinutes: body.bufferBeforeMinutes ?? defaults.beforeMinutes, bufferAfterMinutes: body.bufferAfterMinutes ?? defaults.afterMinutes,
    reference: body.reference ?? null, issueDueAt: issueDueAt(checkInAt, leadTimeMs(lockRows)), createdBy: actor.username,
  }).returning({ id: stays.id });
  const id = row?.id as number;
  await insertGuests(tx, actor, id, body.guests);
  return settle(tx, actor, id, now);
}

/** Keeps guests whose name and mobile are unchanged (their doors stay), removes the others and adds the new ones. */
async function replaceGuests(tx: Executor, actor: Actor, stayId: number, guests: readonly GuestInput[]): Promise<void> {
  const current = await tx.select().from(stayGuests).where(eq(stayGuests.stayId, stayId));
  const fresh: GuestInput[] = [];
  const kept = new Set<number>();
  for (const guest of guests) {
    const same = current.find((row) => !kept.has(row.id) && row.name === guest.name && row.mobile === guest.mobile);
    if (!same) fresh.push(guest);
    else {
      kept.add(same.id);
      if (guest.idCardNumber) await tx.update(stayGuests).set({ idCardEnc: actor.box.seal(guest.idCardNumber.toUpperCase()), idCardLast4: guest.idCardNumber.slice(-4).toUpperCase() }).where(eq(stayGuests.id, same.id));
      if (guest.cardNumber) await tx.update(stayGuests).set({ cardNumber: guest.cardNumber.toUpperCase() }).where(eq(stayGuests.id, same.id));
    }
  }
  for (const row of current) if (!kept.has(row.id)) await tx.delete(stayGuests).where(eq(stayGuests.id, row.id));
  if (fresh.length) await insertGuests(tx, actor, stayId, fresh);
}

/** 409 on body.id: a suspended lease gets no new door (room or guests) until it is resumed, so none is open while its add is on its way. */
const refuseWhileSuspended = (state: string) => {
  if (state === 'SUSPENDED') throw conflictError('body.id', '租约已暂停：恢复后才能换房或更换住客', 'The lease is suspended: resume it before changing its room or guests');
};

/**
 * Changes times, buffers, guests, the reference or the kind of an active stay; doors follow (extend,
 * shorten). Guests of a suspended lease, and a kind other than longLease for it, are refused (409).
 */
export async function editStay(tx: Executor, actor: Actor, body: StayEditBody, now = Date.now()): Promise<StayRecord> {
  const stay = await lockedStay(tx, body.id);
  if (!STAY_ACTIVE_STATES.includes(stay.state as StayState)) checkTransition(stay.state as StayState, 'BOOKED');
  if (body.guests) refuseWhileSuspended(stay.state);
  // Only a lease can be suspended (STAY_SUSPENDABLE_KINDS): a suspended one keeps its kind until resumed.
  if (body.kind && stay.state === 'SUSPENDED' && !STAY_SUSPENDABLE_KINDS.includes(body.kind)) {
    throw conflictError('body.kind', '租约已暂停：只能是长租，恢复后才能改类型', 'The lease is suspended: it stays a long lease until it is resumed');
  }
  const checkInAt = body.checkInAt ? Date.parse(body.checkInAt) : stay.checkInAt.getTime();
  const checkOutAt = body.checkOutAt ? Date.parse(body.checkOutAt) : stay.checkOutAt.getTime();
  if (checkInAt >= checkOutAt) throw new ApiError('VALIDATION_FAILED', [{ field: 'body.checkOutAt', message: { 'zh-CN': '退房时间须晚于入住时间', 'en-US': 'Check-out must be after check-in' } }]);
  checkTimes(checkInAt, checkOutAt, STAY_MAX_DAYS, now);
  await checkOverlap(tx, stay, new Date(checkInAt), new Date(checkOutAt), stay.id);
  await tx.update(stays).set({
    checkInAt: new Date(checkInAt), checkOutAt: new Date(checkOutAt), issueDueAt: issueDueAt(checkInAt, leadTimeMs(await roomLocks(tx, stay))),
    bufferBeforeMinutes: body.bufferBeforeMinutes ?? stay.bufferBeforeMinutes, bufferAfterMinutes: body.bufferAfterMinutes ?? stay.bufferAfterMinutes,
    ...(body.reference === undefined ? {} : { reference: body.reference || null }), ...(body.kind ? { kind: body.kind } : {}),
    alertedAt: checkInAt === stay.checkInAt.getTime() ? stay.alertedAt : null, updatedAt: new Date(now),
  }).where(eq(stays.id, stay.id));
  if (body.guests) await replaceGuests(tx, actor, stay.id, body.guests);
  const cards = (await tx.select({ cardNumber: stayGuests.cardNumber }).from(stayGuests).where(eq(stayGuests.stayId, stay.id)).orderBy(stayGuests.id)).map((guest) => guest.cardNumber);
  await checkCards(tx, cards, { checkInAt: new Date(checkInAt), checkOutAt: new Date(checkOutAt) }, stay.id, () => 'body.guests');
  return settle(tx, actor, stay.id, now);
}

/**
 * Moves a stay to `to` (contract STAY_TRANSITIONS; 409 otherwise). CHECKED_IN issues the doors at once
 * if the lead time has not come; an early check-out ends the stay now; a no-show is refused before
 * the check-in time. Leaving the active states deletes every door.
 */
export async function moveStay(tx: Executor, actor: Actor, id: number, to: StayState, now = Date.now()): Promise<StayRecord> {
  const stay = await lockedStay(tx, id);
  if (stay.state === 'SUSPENDED' && to === 'CHECKED_IN') throw conflictError('body.id', '租约已暂停：请恢复，而不是办理入住', 'The lease is suspended: resume it rather than check in');
  checkTransition(stay.state as StayState, to);
  if (to === 'NO_SHOW' && now < stay.checkInAt.getTime()) throw new ApiError('CONFLICT', [{ field: 'body.id', message: { 'zh-CN': '未到入住时间，不能标记未到店', 'en-US': 'A stay cannot be a no-show before its check-in time' } }]);
  const early = to === 'CHECKED_OUT' && now < stay.checkOutAt.getTime() && now > stay.checkInAt.getTime();
  await tx.update(stays).set({ state: to, updatedAt: new Date(now), ...(early ? { checkOutAt: new Date(now) } : {}) }).where(eq(stays.id, id));
  return settle(tx, actor, id, now);
}

/**
 * Suspends a checked-in lease (overdue rent; contract STAY_SUSPENDABLE_KINDS) or resumes a suspended
 * one: the doors' lock users are frozen / unfrozen through the credential service. 409 on body.id for
 * another state or kind.
 */
export async function suspendStay(tx: Executor, actor: Actor, id: number, suspend: boolean, now = Date.now()): Promise<StayRecord> {
  const stay = await lockedStay(tx, id);
  if (suspend) {
    checkTransition(stay.state as StayState, 'SUSPENDED');
    if (!STAY_SUSPENDABLE_KINDS.includes(stay.kind as StayKind)) throw conflictError('body.id', '只有长租可以暂停', 'Only a long lease can be suspended');
  } else if (stay.state !== 'SUSPENDED') throw conflictError('body.id', '只有已暂停的租约可以恢复', 'Only a suspended lease can be resumed');
  await tx.update(stays).set({ state: suspend ? 'SUSPENDED' : 'CHECKED_IN', updatedAt: new Date(now) }).where(eq(stays.id, id));
  return settle(tx, actor, id, now);
}

/** Moves a booked or checked-in stay to another room: doors deleted on the old locks, added on the new (400 without a lock, 409 on an overlap or while suspended). */
export async function changeRoom(tx: Executor, actor: Actor, id: number, room: Room, now = Date.now()): Promise<StayRecord> {
  const stay = await lockedStay(tx, id);
  refuseWhileSuspended(stay.state);
  if (stay.state !== 'BOOKED' && stay.state !== 'CHECKED_IN') checkTransition(stay.state as StayState, 'BOOKED');
  const lockRows = await roomLocks(tx, room);
  await checkOverlap(tx, room, stay.checkInAt, stay.checkOutAt, id);
  await tx.update(stays).set({ ...room, issueDueAt: issueDueAt(stay.checkInAt.getTime(), leadTimeMs(lockRows)), updatedAt: new Date(now) }).where(eq(stays.id, id));
  return settle(tx, actor, id, now);
}

/**
 * Issues card `cardNumber` to guest `guestId` of booked or checked-in stay `id` (null: takes it back);
 * every door adds it (and deletes the card it replaces). 409 while suspended or for another state; see
 * cards.ts setGuestCard for the card's own refusals.
 */
export async function issueCard(tx: Executor, actor: Actor, body: { id: number; guestId: number; cardNumber: string | null }, now = Date.now()): Promise<StayRecord> {
  const stay = await lockedStay(tx, body.id);
  refuseWhileSuspended(stay.state);
  if (stay.state !== 'BOOKED' && stay.state !== 'CHECKED_IN') checkTransition(stay.state as StayState, 'BOOKED');
  await setGuestCard(tx, stay, body.guestId, body.cardNumber);
  return settle(tx, actor, stay.id, now);
}
