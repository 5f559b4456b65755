/**
 * Two-factor sign-in, owned by modules/twoFactor: one row per account that began
 * enrolment. The TOTP secret is sealed with the platform's SecretBox (crypto/secret-box.ts); the
 * recovery codes are stored as SHA-256 hex (each 50 random bits, used once: its hash leaves the
 * array). `last_time_step` is the RFC 6238 counter of the last code accepted: a code of that step or
 * an earlier one is refused (no replay). Row-level security (migration *_two_factor.sql): a tenant
 * transaction sees the rows of the accounts it sees (accounts' own policy).
 */
import { sql } from 'drizzle-orm';
import { bigint, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './schema-identity.js';

export const twoFactors = pgTable('two_factors', {
  accountId: integer('account_id').primaryKey().references(() => accounts.id, { onDelete: 'cascade' }),
  /** SecretBox-sealed base32 secret (20 random bytes). */
  sealedSecret: text('sealed_secret').notNull(),
  /** Set when a valid code confirmed the enrolment; null while pending. */
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  recoveryCodeHashes: text('recovery_code_hashes').array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
