/**
 * Idempotency keys (IETF draft-ietf-httpapi-idempotency-key-header), written only by
 * http/idempotency.ts. One row per (data centre, account, key): the request's fingerprint, whether its
 * change committed, and once answered the answer replayed to repeats until `expires_at` (24 h). Tenant-scoped
 * with row-level security (migration *_idempotency_rls.sql); the cleanup job uses the owner connection.
 */
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts, tenants } from './schema.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

export const idempotencyKeys = pgTable('idempotency_keys', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  /** The client's key (1-255 printable ASCII characters). */
  key: text('key').notNull(),
  /** SHA-256 (hex) of method, path and the canonical JSON of the body. */
  fingerprint: text('fingerprint').notNull(),
  /** Set in the transaction that committed the call's change: a crash after it never runs the call again. */
  appliedAt: at('applied_at'),
  /** The answer, once sent: HTTP status and JSON body text. */
  responseStatus: integer('response_status'),
  responseBody: text('response_body'),
  /** While unanswered, the request holding the key; another may take over after the lease (a crashed instance). */
  lockedAt: at('locked_at').notNull().defaultNow(),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at').notNull(),
}, (t) => [
  uniqueIndex('idempotency_keys_scope_key').on(t.tenantId, t.accountId, t.key),
  index('idempotency_keys_expires').on(t.expiresAt),
]);
