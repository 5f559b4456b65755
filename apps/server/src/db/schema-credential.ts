/**
 * Credential tables, tenant-scoped with row-level security (0007 custom migration): lock
 * users, credentials on locks and the operation log. Password digits are stored only sealed
 * (crypto/secret-box.ts, AES-256-GCM) in `secret_enc`; never in clear. Sync state and the pending
 * action follow the row's last command (modules/credential/sync.ts).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { locks } from './schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

/** A person under a user slot of one lock. */
export const lockUsers = pgTable('lock_users', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  userSlot: integer('user_slot').notNull(),
  name: text('name').notNull(),
  phone: text('phone'),
  /** null: unbounded; validTo exclusive. */
  validFrom: ts('valid_from'),
  validTo: ts('valid_to'),
  /** normal | frozen */
  status: text('status').notNull().default('normal'),
  /** Matter UserType (contract USER_TYPES). */
  userType: text('user_type').notNull().default('unrestrictedUser'),
  /** Matter CredentialRule: single | dual. */
  credentialRule: text('credential_rule').notNull().default('single'),
  /** expiringUser: minutes of access after the first use. */
  expiringMinutes: integer('expiring_minutes'),
  /** contract SYNC_STATES */
  syncState: text('sync_state').notNull(),
  /** The operation the last command carries: add | modify | freeze | unfreeze | delete. */
  pendingAction: text('pending_action').notNull(),
  lastCommandId: bigint('last_command_id', { mode: 'number' }),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('lock_users_lock_slot').on(t.lockId, t.userSlot),
  index('lock_users_tenant').on(t.tenantId, t.id),
  index('lock_users_command').on(t.lastCommandId),
  // Credential drift (门锁信息 / 门锁概况 attention): the few rows not in sync, by lock.
  index('lock_users_unsynced').on(t.lockId).where(sql`sync_state <> 'normal'`),
]);

/** A password, temporary password, card or fingerprint on one lock. */
export const credentials = pgTable('credentials', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  /** password | tempPassword | card | fingerprint */
  kind: text('kind').notNull(),
  /** Slot in the lock's table; null for a fingerprint until the lock answers. */
  slot: integer('slot'),
  /** passwords | cards | fingerprints: the lock table the slot belongs to. */
  slotTable: text('slot_table').notNull(),
  lockUserId: integer('lock_user_id').references(() => lockUsers.id, { onDelete: 'set null' }),
  userSlot: integer('user_slot'),
  validFrom: ts('valid_from'),
  validTo: ts('valid_to'),
  oneTime: boolean('one_time').notNull().default(false),
  /** Cards: upper-case hex as entered, and whether it is sent byte-reversed. */
  cardNumber: text('card_number'),
  reversed: boolean('reversed').notNull().default(false),
  /** Passwords: the digits sealed with the secret box. */
  secretEnc: text('secret_enc'),
  syncState: text('sync_state').notNull(),
  /** add | delete */
  pendingAction: text('pending_action').notNull(),
  lastCommandId: bigint('last_command_id', { mode: 'number' }),
  createdBy: text('created_by').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('credentials_lock_slot').on(t.lockId, t.slotTable, t.slot).where(sql`${t.slot} is not null`),
  index('credentials_tenant').on(t.tenantId, t.id),
  index('credentials_command').on(t.lastCommandId),
  index('credentials_card').on(t.tenantId, t.cardNumber),
  index('credentials_unsynced').on(t.lockId).where(sql`sync_state <> 'normal'`),
]);

/** Operation log (用户/密码/卡/指纹操作日志); the lock's answer is read through the command row. */
export const credentialOperations = pgTable('credential_operations', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  /** user | password | card | fingerprint */
  subject: text('subject').notNull(),
  /** contract CREDENTIAL_ACTIONS */
  action: text('action').notNull(),
  /** lock_users.id or credentials.id (kept after the row is gone). */
  rowId: integer('row_id'),
  kind: text('kind'),
  slot: integer('slot'),
  holderName: text('holder_name'),
  operator: text('operator').notNull(),
  commandId: bigint('command_id', { mode: 'number' }),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [
  index('credential_operations_tenant').on(t.tenantId, t.subject, t.id),
  // Newest first by time (the operation logs' default order).
  index('credential_operations_time').on(t.tenantId, t.subject, t.createdAt),
]);

/** The latest slot inventory each lock reported (bitmaps as hex; never a secret). */
export const lockInventories = pgTable('lock_inventories', {
  lockId: integer('lock_id').primaryKey().references(() => locks.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id').notNull(),
  /** change | request | daily */
  reason: text('reason').notNull(),
  digest: text('digest').notNull(),
  users: text('users').notNull(),
  passwords: text('passwords').notNull(),
  cards: text('cards').notNull(),
  fingerprints: text('fingerprints').notNull(),
  reportedAt: ts('reported_at').notNull().defaultNow(),
});

/** Slots a lock reported that the platform never put there (added at the keypad). */
export const unmanagedSlots = pgTable('unmanaged_slots', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  /** users | passwords | cards | fingerprints */
  slotTable: text('slot_table').notNull(),
  slot: integer('slot').notNull(),
  /** normal (found), deleting, delete_failed: a delete from the lock follows its command. */
  syncState: text('sync_state').notNull(),
  pendingAction: text('pending_action').notNull(),
  lastCommandId: bigint('last_command_id', { mode: 'number' }),
  firstSeenAt: ts('first_seen_at').notNull().defaultNow(),
  /** Last change of the sync state (credential/sync.ts settleSyncRows writes it like the other sync tables). */
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('unmanaged_slots_lock_slot').on(t.lockId, t.slotTable, t.slot),
  index('unmanaged_slots_tenant').on(t.tenantId, t.id),
  index('unmanaged_slots_command').on(t.lastCommandId),
]);
