/**
 * API keys, owned by modules/apiKey: per data centre, tenant-scoped with row-level
 * security (migration *_api_keys.sql). A key is `iotk_<prefix id>_<secret>`: `prefix` finds the row,
 * `key_hash` (SHA-256 hex of the whole key) proves it. A rotation keeps the row (same id, name and
 * prefix) with a new hash; the replaced hash works until `previous_valid_until`.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './schema-identity.js';
import { tenants } from './schema.js';

export const apiKeys = pgTable('api_keys', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  name: text('name').notNull(),
  /** `iotk_` + 12 random base64url characters, unique: the public part of the key. */
  prefix: text('prefix').notNull().unique(),
  keyHash: text('key_hash').notNull(),
  /** The hash replaced by the last rotation and until when it still works. */
  previousKeyHash: text('previous_key_hash'),
  previousValidUntil: timestamp('previous_valid_until', { withTimezone: true }),
  /** Authority keys of its scope (the creator's current ones are intersected at use). */
  authorities: text('authorities').array().notNull(),
  /** CIDRs of the client networks allowed; empty: any. */
  allowedNetworks: text('allowed_networks').array().notNull().default(sql`'{}'::text[]`),
  /** The account that made it: the key acts within this account's current authorities. */
  createdBy: integer('created_by').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
}, (t) => [index('api_keys_tenant').on(t.tenantId, t.id)]);
