/**
 * Database schema (Drizzle). Tenant-scoped tables carry `tenant_id` and a row-level-security policy
 * (migration 0001_rls.sql): inside a tenant transaction only that tenant's rows are visible.
 * Times are `timestamptz`; units are in column comments.
 */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Data centres. */
export const tenants = pgTable('tenants', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  /** IANA zone every page, the big screen, exports and the analysis' days use for this data centre (issue #24). */
  timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
  createdAt: createdAt(),
});

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
}, (t) => [index('sessions_account').on(t.accountId), index('sessions_family').on(t.family)]);

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

/** ZIGUANG locks. Device secret: SHA-256 of a random 128-bit secret (high entropy, so no slow hash). */
export const locks = pgTable('locks', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  /** Unique among locks whose IMEI was not released (a decommissioned lock's IMEI is freed only by an explicit act). */
  imei: text('imei').notNull(),
  name: text('name').notNull(),
  building: text('building').notNull().default(''),
  floor: text('floor').notNull().default(''),
  room: text('room').notNull().default(''),
  model: text('model').notNull(),
  vendor: text('vendor').notNull().default('ZIGUANG'),
  firmwareVersion: text('firmware_version').notNull(),
  /** % */
  battery: integer('battery'),
  /** dBm */
  rssi: integer('rssi'),
  /** dB */
  snr: real('snr'),
  /** s */
  heartbeatIntervalS: integer('heartbeat_interval_s').notNull().default(30),
  lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }),
  lastSeq: integer('last_seq'),
  /** Any uplink; an NB-IoT lock is reachable for protocol.WAKE_WINDOW_MS after it. */
  lastUplinkAt: timestamp('last_uplink_at', { withTimezone: true }),
  /**
   * online | offline as last announced to the open platform (issue #16 presence events): online from
   * a stored heartbeat, offline from the presence sweep (modules/subscription/presence.ts); null
   * before the first heartbeat.
   */
  presence: text('presence'),
  /** Always reachable (mains-powered / Wi-Fi); false for NB-IoT locks in power-saving mode. */
  alwaysOnline: boolean('always_online').notNull().default(false),
  /** A door whose remote unlocks need a second operator's approval (issue #26, modules/remoteUnlock). */
  highSecurity: boolean('high_security').notNull().default(false),
  /** open | closed, from doorState uplinks. */
  doorState: text('door_state'),
  locked: boolean('locked'),
  /** Last configuration the lock reported (protocol lockConfig). */
  config: jsonb('config'),
  deviceSecretHash: text('device_secret_hash').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** Part of the demo fleet driven by the built-in simulator. */
  simulated: boolean('simulated').notNull().default(false),
  /** SIM card id (19-20 digits) or ''. */
  iccid: text('iccid').notNull().default(''),
  note: text('note').notNull().default(''),
  /** Retired: refused at connect, hidden from the default list, history kept. */
  decommissionedAt: timestamp('decommissioned_at', { withTimezone: true }),
  /** Set when a decommissioned lock's IMEI was released for a new registration. */
  imeiReleasedAt: timestamp('imei_released_at', { withTimezone: true }),
  /** End of the paid service period (issue #15; written by lockDevice/service-period.ts); null: never covered, not restricted. */
  serviceEndAt: timestamp('service_end_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  index('locks_tenant').on(t.tenantId, t.id),
  uniqueIndex('locks_imei_registered').on(t.imei).where(sql`imei_released_at is null`),
  index('locks_tenant_location').on(t.tenantId, t.building, t.floor, t.room),
  // The lock list at 100,000 locks (bench/fleet.ts): a building's registered locks in id order (its pages
  // and its count, index-only), and the registered locks of a data centre in id order (the unfiltered list).
  index('locks_tenant_building_id').on(t.tenantId, t.building, t.id).where(sql`imei_released_at is null and decommissioned_at is null`),
  index('locks_tenant_registered').on(t.tenantId, t.id).where(sql`imei_released_at is null and decommissioned_at is null`),
  index('locks_tenant_model').on(t.tenantId, t.model),
  // Firmware changes only by an upgrade, so heartbeats still update the row in place (HOT, 0009).
  index('locks_tenant_firmware').on(t.tenantId, t.firmwareVersion),
  // The analysis' new locks per day (modules/analysis/trends.ts): the range's registrations, index-only.
  index('locks_tenant_created').on(t.tenantId, t.createdAt).where(sql`decommissioned_at is null`),
]);

/** System log (系统日志): sign-ins, sign-outs and every mutating call. Never holds secrets. */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id'),
  accountId: integer('account_id'),
  username: text('username').notNull(),
  action: text('action').notNull(),
  target: text('target').notNull().default(''),
  /** The target object's name when the change was made (modules/audit/targets.ts); null when the target is a name already. */
  targetName: text('target_name'),
  /** An edit's changed fields, `{ field: [before, after] }`; null otherwise. */
  changes: jsonb('changes'),
  /** `success` or an error code. */
  result: text('result').notNull(),
  clientIp: text('client_ip').notNull().default(''),
  detail: jsonb('detail'),
  createdAt: createdAt(),
}, (t) => [
  index('audit_log_time').on(t.createdAt),
  index('audit_log_user_action').on(t.username, t.action, t.createdAt),
  index('audit_log_tenant_id').on(t.tenantId, t.id),
  // Sign-in throttling counts recent failures by address too (modules/audit/repo.ts signInFailures):
  // without it every sign-in scanned the whole system log.
  index('audit_log_failed_sign_in_address').on(t.clientIp, t.createdAt)
    .where(sql`${t.action} = 'sign-in' and ${t.result} = 'INVALID_CREDENTIALS'`),
]);

/* Issue #3: device activity tables. */
export * from './schema-device.js';

/* Issue #4: credential tables. */
export * from './schema-credential.js';

/* Issue #16: open-platform tables. */
export * from './schema-subscription.js';

/* Issue #11: device types and lock groups. */
export * from './schema-registry.js';

/* Issue #15: packages, orders and refunds. */
export * from './schema-commerce.js';

/* Issue #13: air switches. */
export * from './schema-airswitch.js';

/* Issue #14: analysis rollups, thresholds and forecasts. */
export * from './schema-analysis.js';

/* Issue #12: firmware packages, rollouts and per-lock OTA jobs. */
export * from './schema-firmware.js';

/* Issue #31: Idempotency-Key records of money-moving and credential-creating calls. */
export * from './schema-idempotency.js';

/* Issue #23: tickets of the console's live stream. */
export * from './schema-live.js';

/* Issue #26: access schedules and holiday calendars. */
export * from './schema-access.js';

/* Issue #26: remote unlock requests. */
export * from './schema-remote-unlock.js';

/* Issue #25: notification channels. */
export * from './schema-notification.js';
