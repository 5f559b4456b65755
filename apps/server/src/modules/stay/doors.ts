/**
 * The doors of a stay (docs/stays.md): what the stay wants (each guest x each lock of its
 * room while it is active and due) against what it has (stay_doors), made equal through the credential
 * service, so every step is a command with its sync state: a missing door gets a lock user (window =
 * stay ± buffers) holding the guest's password; a door whose window changed gets a user modify; a door
 * no longer wanted gets a user delete (the lock drops the user's password with it); a suspended stay's
 * users are frozen and a resumed stay's unfrozen (a freeze or unfreeze command each). A door whose lock
 * user is busy (its command still on its way) is left for later: the stay stays `pending` and the stays
 * job runs this again when that credential settles (credential.sync). Runs in the caller's tenant transaction.
 */
import { eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { credentials, lockUsers, stayDoors, stayGuests, stays } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { addCredential } from '../credential/credentials.js';
import type { Actor } from '../credential/ops.js';
import { discardUser, userOperation } from '../credential/users.js';
import { cardRows, syncDoorCard } from './cards.js';
import { doorWindow, roomLocks } from './rules.js';

const BUSY = new Set(['adding', 'modifying', 'deleting']);
const key = (guestId: number, lockId: number) => `${guestId}:${lockId}`;
const MINUTE = 60_000;
const floorMinute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;

type Guest = typeof stayGuests.$inferSelect;

/**
 * Adds the guest's lock user and password (and card, if any) on `lockId`; a lock that has the guest's
 * digits already gets random ones. True when the card was left for later.
 */
async function openDoor(tx: Executor, actor: Actor, stayId: number, guest: Guest, lockId: number, window: { validFrom: string; validTo: string }): Promise<boolean> {
  const user = await userOperation(tx, actor, { action: 'add', lockId, name: guest.name, phone: guest.mobile, ...window });
  const input = { kind: 'password' as const, lockId, lockUserId: user.record.id };
  let credentialId: number;
  try {
    credentialId = (await addCredential(tx, actor, { ...input, password: actor.box.open(guest.passwordEnc) })).record.id;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'DUPLICATE_CREDENTIAL') throw error;
    credentialId = (await addCredential(tx, actor, input)).record.id;
  }
  const [door] = await tx.insert(stayDoors).values({ tenantId: actor.tenantId, stayId, guestId: guest.id, lockId, lockUserId: user.record.id, credentialId }).returning();
  // The front desk's card beside the password; one held on the lock by someone else still is left for later.
  return door && guest.cardNumber ? syncDoorCard(tx, actor, { ...door, lockUserId: user.record.id }, guest.cardNumber, undefined) : false;
}

/**
 * Makes the stay's doors what it wants at `now` (see the module comment); marks it issued the first
 * time it wants doors and `pending` while a busy door was left. Throws the credential service's
 * refusals (409 CAPACITY_FULL, QUEUE_FULL, ...), which roll the caller's transaction back.
 */
export async function reconcileDoors(tx: Executor, actor: Actor, stayId: number, now: number): Promise<void> {
  const [stay] = await tx.select().from(stays).where(eq(stays.id, stayId)).for('update');
  if (!stay) throw new ApiError('NOT_FOUND');
  const due = stay.state === 'CHECKED_IN' || stay.state === 'SUSPENDED' || (stay.state === 'BOOKED' && (stay.issuedAt !== null || stay.issueDueAt.getTime() <= now));
  const status = stay.state === 'SUSPENDED' ? 'frozen' : 'normal';
  const guests = due ? await tx.select().from(stayGuests).where(eq(stayGuests.stayId, stayId)).orderBy(stayGuests.id) : [];
  const lockIds = due ? (await roomLocks(tx, stay)).map((lock) => lock.id) : [];
  const window = doorWindow(stay);
  const wanted = new Map(guests.flatMap((guest) => lockIds.map((lockId) => [key(guest.id, lockId), { guest, lockId }] as const)));
  const doors = (await tx.select().from(stayDoors).where(eq(stayDoors.stayId, stayId))).filter((door) => door.releasedAt === null);
  const userIds = doors.flatMap((door) => (door.lockUserId === null ? [] : [door.lockUserId]));
  const users = new Map((userIds.length ? await tx.select().from(lockUsers).where(inArray(lockUsers.id, userIds)) : []).map((user) => [user.id, user]));
  const cards = await cardRows(tx, doors.map((door) => door.cardCredentialId));
  let pending = false;
  const windowIso = { validFrom: new Date(window.validFrom).toISOString(), validTo: new Date(window.validTo).toISOString() };
  for (const door of doors) {
    const user = door.lockUserId === null ? undefined : users.get(door.lockUserId);
    const want = wanted.get(key(door.guestId, door.lockId));
    wanted.delete(key(door.guestId, door.lockId));
    if (user && BUSY.has(user.syncState)) {
      pending = true;
      continue;
    }
    if (!want || !user) {
      if (user?.syncState === 'add_failed') await discardUser(tx, actor, user.id);
      else if (user) await userOperation(tx, actor, { action: 'delete', id: user.id });
      await tx.update(stayDoors).set({ releasedAt: new Date(now) }).where(eq(stayDoors.id, door.id));
      continue;
    }
    const moved = user.validFrom?.getTime() !== floorMinute(window.validFrom) || user.validTo?.getTime() !== floorMinute(window.validTo);
    if (user.syncState === 'add_failed') {
      // Readiness shows it failed: retried (door detail, 用户管理) or discarded by hand. A retry re-sends the
      // row as it was, so a stay changed meanwhile waits (`pending`) and follows once the add settles.
      pending ||= moved || user.status !== status;
      continue;
    }
    if (user.status !== status) {
      // The freeze (or unfreeze) first: it is what suspension is for; a window change follows when it settles.
      await userOperation(tx, actor, { action: status === 'frozen' ? 'freeze' : 'unfreeze', id: user.id });
      pending ||= moved || want.guest.cardNumber !== (door.cardCredentialId === null ? null : cards.get(door.cardCredentialId)?.cardNumber ?? null);
    } else if (moved) await userOperation(tx, actor, { action: 'modify', id: user.id, ...windowIso });
    if (user.status === status && status === 'normal') {
      const card = door.cardCredentialId === null ? undefined : cards.get(door.cardCredentialId);
      pending = (await syncDoorCard(tx, actor, { ...door, lockUserId: user.id }, want.guest.cardNumber, card)) || pending;
    }
  }
  for (const { guest, lockId } of wanted.values()) {
    pending = (await openDoor(tx, actor, stayId, guest, lockId, windowIso)) || pending;
    // A door added to a suspended stay (a lock added to its room) is frozen once its add has settled.
    pending ||= status === 'frozen';
  }
  await tx.update(stays).set({ pending, ...(due && stay.issuedAt === null ? { issuedAt: new Date(now) } : {}) }).where(eq(stays.id, stayId));
}

/** A door with the sync states of its lock user and password (null: the row is gone, deleted on the lock). */
export interface DoorState {
  stayId: number;
  guestId: number;
  lockId: number;
  lockUserId: number | null;
  credentialId: number | null;
  userState: string | null;
  /** normal | frozen (the lock user's status), null once the row is gone. */
  userStatus: string | null;
  credentialState: string | null;
  /** The guest's card on this door and its sync state; `cardWanted`: the guest holds a card. */
  cardCredentialId: number | null;
  cardState: string | null;
  cardWanted: boolean;
  released: boolean;
}

/** The door's credentials are all on the lock: user (with `status`), password and the guest's card, if any. */
export const doorReady = (door: DoorState, status = 'normal') =>
  door.userState === 'normal' && door.credentialState === 'normal' && door.userStatus === status && (!door.cardWanted || door.cardState === 'normal');

/** The doors of `stayIds` with the sync states read from the credential tables. */
export async function doorStates(tx: Executor, stayIds: readonly number[]): Promise<DoorState[]> {
  if (stayIds.length === 0) return [];
  const cards = alias(credentials, 'card');
  const rows = await tx.select({
    stayId: stayDoors.stayId, guestId: stayDoors.guestId, lockId: stayDoors.lockId, lockUserId: stayDoors.lockUserId, credentialId: stayDoors.credentialId,
    releasedAt: stayDoors.releasedAt, userState: lockUsers.syncState, userStatus: lockUsers.status, credentialState: credentials.syncState,
    cardCredentialId: stayDoors.cardCredentialId, cardState: cards.syncState, guestCard: stayGuests.cardNumber,
  }).from(stayDoors).leftJoin(lockUsers, eq(lockUsers.id, stayDoors.lockUserId)).leftJoin(credentials, eq(credentials.id, stayDoors.credentialId))
    .leftJoin(cards, eq(cards.id, stayDoors.cardCredentialId)).leftJoin(stayGuests, eq(stayGuests.id, stayDoors.guestId))
    .where(inArray(stayDoors.stayId, [...stayIds])).orderBy(stayDoors.id);
  return rows.map(({ releasedAt, guestCard, ...row }) => ({ ...row, cardWanted: guestCard !== null, released: releasedAt !== null }));
}

/**
 * Readiness of a stay from its doors: `none` once it is over (or has no door), `pending` before it is
 * issued, `failed` when a door's user or password failed, `queued` while any is on its way (or a busy
 * door was left, or a door's user is not yet frozen / unfrozen as the stay wants), `ready` when every
 * door's user and password are 正常, `suspended` when so and the stay is suspended (every user frozen).
 */
export function readinessOf(stay: { state: string; issuedAt: Date | null; pending: boolean }, doors: readonly DoorState[]) {
  const suspended = stay.state === 'SUSPENDED';
  const status = suspended ? 'frozen' : 'normal';
  const active = doors.filter((door) => !door.released);
  const failedDoors = active.filter((door) => [door.userState, door.credentialState, door.cardState].some((state) => state?.endsWith('_failed'))).length;
  const queuedDoors = active.filter((door) => !doorReady(door, status)).length - failedDoors;
  const open = stay.state === 'BOOKED' || stay.state === 'CHECKED_IN' || suspended;
  const readiness = !open ? 'none' as const : stay.issuedAt === null ? 'pending' as const : failedDoors > 0 ? 'failed' as const
    : queuedDoors > 0 || stay.pending ? 'queued' as const : active.length === 0 ? 'none' as const : suspended ? 'suspended' as const : 'ready' as const;
  return { readiness, queuedDoors, failedDoors };
}
