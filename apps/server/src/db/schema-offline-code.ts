/**
 * Offline codes issued (owned by modules/offlineCode), tenant-scoped with row-level security
 * (same migration). One row per issued code: the lock, who issued it and for whom, the kind and window.
 * The code itself is not kept: `code_digest` is HMAC-SHA-256 of the code under the lock's own offline-code
 * key (hex), enough to refuse issuing the same code twice for one lock and useless without that key.
 */
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { locks } from './schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const offlineCodes = pgTable('offline_codes', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  /** oneTime | hourly | daily (contract OFFLINE_CODE_KINDS). */
  kind: text('kind').notNull(),
  recipientName: text('recipient_name').notNull(),
  recipientMobile: text('recipient_mobile').notNull(),
  issuedBy: text('issued_by').notNull(),
  issuedAt: ts('issued_at').notNull().defaultNow(),
  validFrom: ts('valid_from').notNull(),
  validTo: ts('valid_to').notNull(),
  /** Daily codes: local hours of the data centre's zone, toHour exclusive; null otherwise. */
  fromHour: integer('from_hour'),
  toHour: integer('to_hour'),
  codeDigest: text('code_digest').notNull(),
}, (t) => [
  index('offline_codes_tenant').on(t.tenantId, t.id),
  uniqueIndex('offline_codes_lock_code').on(t.lockId, t.codeDigest),
  check('offline_codes_kind', sql`${t.kind} in ('oneTime', 'hourly', 'daily')`),
]);
