/**
 * Identity tables (#28's ground): login accounts, their data centres, roles and role
 * bindings, sessions (access tokens), image captchas and the RSA keys of the sign-in form; written by
 * the oauth, account and role modules. Re-exported by schema.ts.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './schema.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Login accounts; type 0 is administrator (spec §6). Password: argon2id hash. Row-level security
 * (0003_account_rls.sql): a tenant transaction sees administrators and the accounts of its tenant only.
 */
export const accounts = pgTable('accounts', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  type: integer('type').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** The tenant the account was created in. */
  homeTenantId: integer('home_tenant_id').notNull().references(() => tenants.id),
  /** Contact: the address notifications are e-mailed to once verified; changing it un-verifies it. */
  email: text('email'),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /** The pending verification code: scrypt hash `salt:hash` (hex), its expiry and the wrong attempts so far. */
  emailCodeHash: text('email_code_hash'),
  emailCodeExpiresAt: timestamp('email_code_expires_at', { withTimezone: true }),
  emailCodeAttempts: integer('email_code_attempts').notNull().default(0),
  /** A mainland China mobile number (no SMS yet). */
  mobile: text('mobile'),
  /** zh-CN | en-US: the language of e-mails to the account; null: the sending channel's. */
  language: text('language'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Tenants an account may work in. Row-level security (0003_account_rls.sql): every membership is
 * readable, but a tenant transaction writes only its own tenant's memberships.
 */
export const accountTenants = pgTable('account_tenants', {
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
}, (t) => [primaryKey({ columns: [t.accountId, t.tenantId] })]);

/** Roles: a named set of authority keys, per tenant. */
export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  authorities: text('authorities').array().notNull().default(sql`'{}'::text[]`),
  /** Members must sign in with two-factor; not enrolled, their sessions reach enrolment only. */
  requiresTwoFactor: boolean('requires_two_factor').notNull().default(false),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('roles_tenant_name').on(t.tenantId, t.name)]);

/** Role bindings. */
export const accountRoles = pgTable('account_roles', {
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
}, (t) => [primaryKey({ columns: [t.accountId, t.roleId] })]);

/** Access tokens: only the SHA-256 of a token is stored. */
export const sessions = pgTable('sessions', {
  id: serial('id').primaryKey(),
  tokenHash: text('token_hash').notNull().unique(),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  /** One sign-in: rotated tokens share it, and sign-out revokes the whole family. */
  family: text('family').notNull(),
  createdAt: createdAt(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  /** Absolute expiry of the sign-in this token belongs to. */
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** Set when a fresher token replaced this one; it stays valid for a short grace period. */
  rotatedAt: timestamp('rotated_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  /** Why an administrator's change revoked it (contract SIGN_OUT_REASONS); null for a sign-out. */
  revokeReason: text('revoke_reason'),
  /**
   * When the sign-in last proved its second factor again (POST /iot/v1/twoFactor/stepUp);
   * set on every live token of the family and carried over by rotation. Null: never.
   */
  stepUpAt: timestamp('step_up_at', { withTimezone: true }),
  /** Where the sign-in came from: set on its first token; rotated ones leave them null. */
  clientIp: text('client_ip'),
  userAgent: text('user_agent'),
  /**
   * A single sign-on's provider (issuer) and its session id (`sid` of the ID token, null when the
   * provider sends none), set on the family's first token; null for a password sign-in. Back-channel
   * logout ends the families they name (docs/identity.md "Single sign-on").
   */
  ssoIssuer: text('sso_issuer'),
  ssoSid: text('sso_sid'),
}, (t) => [index('sessions_account').on(t.accountId), index('sessions_family').on(t.family)]);

/**
 * Sign-in history: one row per attempt on an existing account, written only by
 * the oauth module (modules/oauth/history.ts); attempts on unknown usernames stay in the system log
 * only. No tenant: accounts are not per data centre; row-level security (0048_sign_in_history.sql) lets
 * a tenant transaction see the rows of the accounts it sees, as two_factors.
 */
export const signInAttempts = pgTable('sign_in_attempts', {
  id: serial('id').primaryKey(),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  clientIp: text('client_ip').notNull(),
  /** As the client sent it, cut to 512 characters. */
  userAgent: text('user_agent'),
  /** Contract SIGN_IN_METHODS. */
  method: text('method').notNull(),
  /** Contract SIGN_IN_RESULTS. */
  result: text('result').notNull(),
  /** The key of an `apiKey` row (no foreign key: the history outlives a deleted key). */
  apiKeyId: integer('api_key_id'),
  apiKeyName: text('api_key_name'),
}, (t) => [index('sign_in_attempts_account').on(t.accountId, t.id), index('sign_in_attempts_created').on(t.createdAt)]);

/** Image captchas; the answer is stored hashed and usable once. */
export const captchas = pgTable('captchas', {
  id: text('id').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** RSA key pairs for encrypting the password at sign-in. */
export const rsaKeys = pgTable('rsa_keys', {
  id: text('id').primaryKey(),
  publicPem: text('public_pem').notNull(),
  privatePem: text('private_pem').notNull(),
  createdAt: createdAt(),
});

/**
 * Accounts of single sign-on: the provider's (issuer, subject) of each account created by
 * a first SSO sign-in; written by modules/sso only. Row-level security (0051_sso.sql): as two_factors.
 */
export const ssoLinks = pgTable('sso_links', {
  accountId: integer('account_id').primaryKey().references(() => accounts.id, { onDelete: 'cascade' }),
  issuer: text('issuer').notNull(),
  subject: text('subject').notNull(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('sso_links_subject').on(t.issuer, t.subject)]);

/**
 * A data centre's single sign-on rule: a person whose claim `claim` equals `value` (or, an
 * array, contains it) works in the data centre with `roleIds` (roles of it; ids of deleted roles are
 * skipped). Written by modules/sso only; tenant row-level security (0051_sso.sql).
 */
export const ssoRules = pgTable('sso_rules', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  claim: text('claim').notNull(),
  value: text('value').notNull(),
  roleIds: integer('role_ids').array().notNull(),
  createdAt: createdAt(),
}, (t) => [index('sso_rules_tenant').on(t.tenantId)]);
