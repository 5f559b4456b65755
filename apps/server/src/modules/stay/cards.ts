/**
 * Guests' cards (docs/stays.md "Cards"): a card the front desk issues to a guest is held on
 * every door of the stay beside the guest's password, as a card credential of the door's lock user
 * (so a check-out's user delete drops it with the password, and a freeze freezes it). Issuing, changing
 * or taking back a card is a credential add / delete through the credential service: a command with its
 * sync state. A card another holder still has on a lock (the previous guest's delete still on its way)
 * is left for later: the door stays `pending` until that delete settles.
 */
import { STAY_ACTIVE_STATES, type StayState } from '@iot/contract';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { credentials, stayDoors, stayGuests, stays } from '../../db/schema.js';
import { ApiError, conflictError, fieldError } from '../../http/api-error.js';
import { addCredential, deleteCredential, discardCredential } from '../credential/credentials.js';
import type { Actor } from '../credential/ops.js';

const BUSY = new Set(['adding', 'modifying', 'deleting']);
type CardRow = { id: number; syncState: string; cardNumber: string | null };

/** The card credentials of `ids` (rows gone on the lock are absent). */
export async function cardRows(tx: Executor, ids: readonly (number | null)[]): Promise<Map<number, CardRow>> {
  const wanted = ids.filter((id): id is number => id !== null);
  if (wanted.length === 0) return new Map();
  const rows = await tx.select({ id: credentials.id, syncState: credentials.syncState, cardNumber: credentials.cardNumber }).from(credentials).where(inArray(credentials.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Adds card `cardNumber` to lock user `lockUserId` on `lockId`; undefined when the lock holds that card for someone else still (left for later). */
async function addCard(tx: Executor, actor: Actor, lockId: number, lockUserId: number, cardNumber: string): Promise<number | undefined> {
  try {
    return (await addCredential(tx, actor, { kind: 'card', lockId, lockUserId, cardNumber })).record.id;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'DUPLICATE_CREDENTIAL') return undefined;
    throw error;
  }
}

/**
 * Makes door `door`'s card what guest card `want` says (null: none): a card no longer wanted (or
 * replaced) is deleted (discarded when its add had failed), a wanted one added. Returns true when
 * something was left for later (a card still on its way, or held on the lock by someone else).
 * A card whose add failed is kept: readiness shows it failed (retried or discarded in 门卡管理).
 */
export async function syncDoorCard(tx: Executor, actor: Actor, door: { id: number; lockId: number; lockUserId: number; cardCredentialId: number | null }, want: string | null, card: CardRow | undefined): Promise<boolean> {
  if (card && BUSY.has(card.syncState)) return true;
  if (card && card.cardNumber === want) return false;
  if (card) {
    if (card.syncState.endsWith('_failed')) await discardCredential(tx, actor, card.id, ['card']);
    else await deleteCredential(tx, actor, card.id, ['card']);
  }
  if (!want) {
    if (door.cardCredentialId !== null) await tx.update(stayDoors).set({ cardCredentialId: null }).where(eq(stayDoors.id, door.id));
    return false;
  }
  const id = await addCard(tx, actor, door.lockId, door.lockUserId, want);
  await tx.update(stayDoors).set({ cardCredentialId: id ?? null }).where(eq(stayDoors.id, door.id));
  return id === undefined;
}

/**
 * 400 on body.guests.N.cardNumber when two guests of `cards` share a card; 409 there when a guest of
 * another active stay of the tenant (overlapping [checkInAt, checkOutAt]) holds it. `cards`: the
 * guests' card numbers in body order (undefined / null: none); `stayId`: the stay itself, not compared.
 */
export async function checkCards(tx: Executor, cards: readonly (string | null | undefined)[], window: { checkInAt: Date; checkOutAt: Date }, stayId?: number, field = (index: number) => `body.guests.${index}.cardNumber`): Promise<void> {
  const seen = new Set<string>();
  for (const [index, raw] of cards.entries()) {
    if (!raw) continue;
    const card = raw.toUpperCase();
    if (seen.has(card)) throw fieldError(field(index), '两位住客不能使用同一张门卡', 'Two guests cannot hold the same card');
    seen.add(card);
    const [held] = await tx.select({ id: stays.id }).from(stayGuests).innerJoin(stays, eq(stays.id, stayGuests.stayId)).where(and(
      eq(stayGuests.cardNumber, card), inArray(stays.state, [...STAY_ACTIVE_STATES] as StayState[]), stayId === undefined ? sql`true` : ne(stays.id, stayId),
      sql`${stays.checkInAt} < ${window.checkOutAt.toISOString()}::timestamptz`, sql`${stays.checkOutAt} > ${window.checkInAt.toISOString()}::timestamptz`,
    )).limit(1);
    if (held) throw conflictError(field(index), `该门卡已发给另一入住（#${held.id}）的住客`, `This card is held by a guest of another stay (#${held.id})`);
  }
}

/**
 * Gives guest `guestId` of stay `stayId` (locked by the caller, active and not suspended) the card
 * `cardNumber` (null: takes it back). 400 on body.guestId for a guest of another stay; 409 on
 * body.cardNumber when another guest holds the card. The caller reconciles the doors.
 */
export async function setGuestCard(tx: Executor, stay: { id: number; checkInAt: Date; checkOutAt: Date }, guestId: number, cardNumber: string | null): Promise<void> {
  const guests = await tx.select({ id: stayGuests.id, cardNumber: stayGuests.cardNumber }).from(stayGuests).where(eq(stayGuests.stayId, stay.id));
  if (!guests.some((guest) => guest.id === guestId)) throw fieldError('body.guestId', '该住客不属于此入住', 'This guest is not on the stay');
  const cards = guests.map((guest) => (guest.id === guestId ? cardNumber : guest.cardNumber));
  await checkCards(tx, cards, stay, stay.id, () => 'body.cardNumber');
  await tx.update(stayGuests).set({ cardNumber: cardNumber?.toUpperCase() ?? null }).where(eq(stayGuests.id, guestId));
}
