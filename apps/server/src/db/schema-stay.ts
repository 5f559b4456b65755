/**
 * Stays (owned by modules/stay), tenant-scoped with row-level security (same migration):
 * a booking or lease of a room (building / floor / room of the lock registry), its guests, and the
 * doors it gave each guest (one lock user with its password per lock of the room). Lock users and
 * credentials themselves belong to modules/credential; a door row only names them.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { locks } from './schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const stays = pgTable('stays', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  building: text('building').notNull(),
  floor: text('floor').notNull(),
  room: text('room').notNull(),
  /** hotelNight | shortRental | longLease (contract STAY_KINDS). */
  kind: text('kind').notNull(),
  /** BOOKED | CHECKED_IN | SUSPENDED | CHECKED_OUT | CANCELLED | NO_SHOW (contract STAY_STATES, STAY_TRANSITIONS). */
  state: text('state').notNull(),
  checkInAt: ts('check_in_at').notNull(),
  checkOutAt: ts('check_out_at').notNull(),
  /** Minutes the doors open before check-in / after check-out. */
  bufferBeforeMinutes: integer('buffer_before_minutes').notNull(),
  bufferAfterMinutes: integer('buffer_after_minutes').notNull(),
  /** The PMS's booking reference, or null. */
  reference: text('reference'),
  /** Check-in minus the room's lead time: when the stays job issues the credentials. */
  issueDueAt: ts('issue_due_at').notNull(),
  /** When the credentials were first issued; null before. */
  issuedAt: ts('issued_at'),
  /** True while the doors may differ from what the stay wants (a busy credential was left for later). */
  pending: boolean('pending').notNull().default(false),
  /** When `stay.notReady` was raised (once per stay). */
  alertedAt: ts('alerted_at'),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  index('stays_tenant').on(t.tenantId, t.id),
  index('stays_tenant_room').on(t.tenantId, t.building, t.floor, t.room, t.checkInAt),
  index('stays_issue_due').on(t.issueDueAt).where(sql`issued_at is null and state in ('BOOKED', 'CHECKED_IN')`),
  check('stays_kind', sql`${t.kind} in ('hotelNight', 'shortRental', 'longLease')`),
  check('stays_state', sql`${t.state} in ('BOOKED', 'CHECKED_IN', 'SUSPENDED', 'CHECKED_OUT', 'CANCELLED', 'NO_SHOW')`),
  check('stays_times', sql`${t.checkInAt} < ${t.checkOutAt}`),
]);

export const stayGuests = pgTable('stay_guests', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  stayId: integer('stay_id').notNull().references(() => stays.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  mobile: text('mobile').notNull(),
  /** ID card number sealed with the secret box (crypto/secret-box.ts), or null. */
  idCardEnc: text('id_card_enc'),
  /** Its last four characters, for display. */
  idCardLast4: text('id_card_last4'),
  /** The guest's digits on every door, sealed; drawn once so every door and a room change keep them. */
  passwordEnc: text('password_enc').notNull(),
  /** IC card number the front desk issued (hex, upper case) as the lock reads it, or null: each door then holds it too. */
  cardNumber: text('card_number'),
}, (t) => [index('stay_guests_stay').on(t.stayId)]);

export const stayDoors = pgTable('stay_doors', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  stayId: integer('stay_id').notNull().references(() => stays.id, { onDelete: 'cascade' }),
  /** The guest (no foreign key: a guest removed by an edit keeps its door row until it is deleted on the lock). */
  guestId: integer('guest_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  /** The lock user (modules/credential) holding the guest's window, and its password; removed there once the lock confirms a delete. */
  lockUserId: integer('lock_user_id'),
  credentialId: integer('credential_id'),
  /** The guest's card on this door (a credential of the same lock user), null while the guest has none or it is not added yet. */
  cardCredentialId: integer('card_credential_id'),
  /** Set when the stay stopped wanting this door (its delete was queued). */
  releasedAt: ts('released_at'),
}, (t) => [index('stay_doors_stay').on(t.stayId), index('stay_doors_user').on(t.lockUserId)]);
