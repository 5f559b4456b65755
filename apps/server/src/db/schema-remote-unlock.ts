/**
 * Remote unlock requests (owned by modules/remoteUnlock), tenant-scoped with row-level
 * security (same migration). One row per operator's request: who asked and why, the second operator
 * who approved it (high-security doors), and the outbox command it became (null while awaiting
 * approval or once expired). Whether a door is high-security is the lock's own column
 * (locks.high_security, owned by modules/lockDevice).
 */
import { bigint, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { locks } from './schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const remoteUnlocks = pgTable('remote_unlocks', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  requestedBy: text('requested_by').notNull(),
  requestedAt: ts('requested_at').notNull().defaultNow(),
  /** Approval deadline of a high-security request; null when no approval was needed. */
  approveBy: ts('approve_by'),
  approvedBy: text('approved_by'),
  approvedAt: ts('approved_at'),
  commandId: bigint('command_id', { mode: 'number' }),
}, (t) => [
  index('remote_unlocks_lock').on(t.lockId, t.id),
  index('remote_unlocks_tenant').on(t.tenantId, t.id),
]);
