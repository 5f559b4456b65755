/**
 * Backup codes for sleeping locks (owned by modules/backupCode), tenant-scoped with row-level
 * security (same migration). One row per pool entry of a lock: the lock user (an expiringUser) and its
 * password that the credential service installed, never their digits (the password row keeps them
 * sealed). A row is `pool` until issued to a stay, `issued` while the guest may use it, `retired` once
 * its delete was queued (kept as the record of who got a backup code when). Lock users and credentials
 * belong to modules/credential; a row only names them (no foreign key: they go when the lock confirms a delete).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { locks } from './schema.js';
import { stays } from './schema-stay.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const backupCodes = pgTable('backup_codes', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  /** The pool entry's lock user (expiringUser) and its password (modules/credential). */
  lockUserId: integer('lock_user_id').notNull(),
  credentialId: integer('credential_id').notNull(),
  /** pool | issued | retired. */
  state: text('state').notNull().default('pool'),
  stayId: integer('stay_id').references(() => stays.id, { onDelete: 'cascade' }),
  issuedAt: ts('issued_at'),
  issuedBy: text('issued_by'),
  retiredAt: ts('retired_at'),
  /** synced | ended (contract BACKUP_CODE_RETIRE_REASONS). */
  retireReason: text('retire_reason'),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [
  index('backup_codes_lock').on(t.lockId, t.state),
  index('backup_codes_stay').on(t.stayId),
  index('backup_codes_issued').on(t.tenantId).where(sql`state = 'issued'`),
  check('backup_codes_state', sql`${t.state} in ('pool', 'issued', 'retired')`),
  check('backup_codes_issued_to', sql`${t.state} = 'pool' or (${t.stayId} is not null and ${t.issuedAt} is not null)`),
]);
