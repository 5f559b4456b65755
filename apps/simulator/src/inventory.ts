/**
 * The lock's own inventory: which user, password, card and fingerprint slots it holds, as
 * the `inventory` uplink carries it (bitmaps and their SHA-256 digest, never a secret), and a code
 * added at the keypad by the lock's administrator (a demo / test hook: the platform learns of it only
 * from the LockUserChange event and the inventory that follow). Transport-free.
 */
import { createHash } from 'node:crypto';
import { protocol } from '@iot/contract';
import type { ActivityEvent } from './activity.js';
import type { LockState } from './lock-state.js';

/** A lock sends its inventory at least this often, ms (daily). */
export const INVENTORY_EVERY_MS = 24 * 3600 * 1000;

/** The inventory uplink's event for `reason`. */
export function inventoryEvent(state: LockState, reason: (typeof protocol.INVENTORY_REASONS)[number]): ActivityEvent {
  const tables = {
    users: protocol.slotBitmap(state.users.keys()), passwords: protocol.slotBitmap(state.passwords.keys()),
    cards: protocol.slotBitmap(state.cards.keys()), fingerprints: protocol.slotBitmap(state.fingerprints.keys()),
  };
  const digest = createHash('sha256').update(protocol.inventoryDigestInput(tables)).digest('hex');
  return { type: 'inventory', data: { reason, ...tables, digest } };
}

/**
 * A password typed in at the keypad in programming mode: stored at the lowest free slot without a
 * user. Returns the events to report (LockUserChange pin add, then the inventory), or undefined when
 * the table is full or the digits are already held.
 */
export function keypadAddPassword(state: LockState, digits: string): { slot: number; events: ActivityEvent[] } | undefined {
  if ([...state.passwords.values()].some((entry) => entry.digits === digits)) return undefined;
  const slot = state.freeSlot('passwords');
  if (slot === undefined) return undefined;
  state.passwords.set(slot, { digits, temporary: false, oneTime: false });
  return { slot, events: [
    { type: 'lockUserChange', data: { lockDataType: 'pin', dataOperationType: 'add', operationSource: 'keypad', slot } },
    inventoryEvent(state, 'change'),
  ] };
}
