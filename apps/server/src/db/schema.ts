/**
 * Database schema (Drizzle). Tenant-scoped tables carry `tenant_id` and a row-level-security policy
 * (migration 0001_rls.sql): inside a tenant transaction only that tenant's rows are visible.
 * Times are `timestamptz`; units are in column comments.
 */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, primaryKey, real, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Data centres. */
export const tenants = pgTable('tenants', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  /** IANA zone every page, the big screen, exports and the analysis' days use for this data centre. */
  timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
  /** False: password sign-in is refused for this data centre's operators, single sign-on only (docs/identity.md). */
  passwordSignIn: boolean('password_sign_in').notNull().default(true),
  /** Buffers a stay booked without its own gets, minutes (0..1440; 30 = contract STAY_DEFAULT_BUFFERS for a new data centre). */
  stayBufferBeforeMinutes: integer('stay_buffer_before_minutes').notNull().default(30),
  stayBufferAfterMinutes: integer('stay_buffer_after_minutes').notNull().default(30),
  /** True: the backup-code job issues a backup code by itself to a checked-in stay's doors still waiting for the guest's code (docs/stays.md). */
  stayAutoBackupCode: boolean('stay_auto_backup_code').notNull().default(false),
  createdAt: createdAt(),
});

/** ZIGUANG locks. Their MQTT identity and device secret are in the device registry (schema-devices.ts). */
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
   * online | offline as last announced to the open platform (its presence events): online from
   * a stored heartbeat, offline from the presence sweep (modules/subscription/presence.ts); null
   * before the first heartbeat.
   */
  presence: text('presence'),
  /** Always reachable (mains-powered / Wi-Fi); false for NB-IoT locks in power-saving mode. */
  alwaysOnline: boolean('always_online').notNull().default(false),
  /** A door whose remote unlocks need a second operator's approval (modules/remoteUnlock). */
  highSecurity: boolean('high_security').notNull().default(false),
  /**
   * A common door (stays): `building` (an entrance, a lift) or `floor` (a floor gate) serves
   * every room of its building or of its floor, so a stay of any such room is issued on it too; null: a room's own door.
   */
  commonDoor: text('common_door'),
  /** open | closed, from doorState uplinks. */
  doorState: text('door_state'),
  locked: boolean('locked'),
  /** Last configuration the lock reported (protocol lockConfig). */
  config: jsonb('config'),
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
  /** End of the paid service period (written by lockDevice/service-period.ts); null: never covered, not restricted. */
  serviceEndAt: timestamp('service_end_at', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  index('locks_tenant').on(t.tenantId, t.id),
  // What the device registry's row names (schema-devices.ts devices_lock_identity); never updated, so heartbeats stay HOT.
  unique('locks_identity').on(t.id, t.tenantId, t.imei),
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
  index('locks_tenant_common_door').on(t.tenantId, t.building, t.floor).where(sql`common_door is not null`),
  check('locks_common_door', sql`${t.commonDoor} in ('building', 'floor')`),
]);

/** System log (系统日志): sign-ins, sign-outs and every mutating call. Never holds secrets. */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).notNull(),
  tenantId: integer('tenant_id'),
  accountId: integer('account_id'),
  username: text('username').notNull(),
  action: text('action').notNull(),
  target: text('target').notNull().default(''),
  /** The target object's name when the change was made (modules/auditLog/targets.ts); null when the target is a name already. */
  targetName: text('target_name'),
  /** An edit's changed fields, `{ field: [before, after] }`; null otherwise. */
  changes: jsonb('changes'),
  /** `success` or an error code. */
  result: text('result').notNull(),
  clientIp: text('client_ip').notNull().default(''),
  detail: jsonb('detail'),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.id, t.createdAt] }),
  index('audit_log_time').on(t.createdAt),
  index('audit_log_user_action').on(t.username, t.action, t.createdAt),
  index('audit_log_tenant_id').on(t.tenantId, t.id),
  // Sign-in throttling counts recent failures (of sign-ins and step-ups) by address too
  // (modules/auditLog/repo.ts signInFailures): without it every sign-in scanned the whole system log.
  index('audit_log_failed_sign_in_address').on(t.clientIp, t.createdAt)
    .where(sql`${t.action} in ('sign-in', 'step-up') and ${t.result} in ('INVALID_CREDENTIALS', 'TWO_FACTOR_INVALID')`),
]);

/* Accounts, roles, sessions, captchas, sign-in keys. */
export * from './schema-identity.js';

/* Device activity tables. */
export * from './schema-device.js';

/* Credential tables. */
export * from './schema-credential.js';

/* Open-platform tables. */
export * from './schema-subscription.js';

/* Device types and lock groups. */
export * from './schema-registry.js';

/* Packages, orders and refunds. */
export * from './schema-commerce.js';

/* Air switches. */
export * from './schema-airswitch.js';
/* Alerts and commands of every device kind. */
export * from './schema-alert.js';
export * from './schema-command.js';
/* The device registry: every device's MQTT identity and secret. */
export * from './schema-devices.js';

/* Analysis rollups, thresholds and forecasts. */
export * from './schema-analysis.js';

/* Firmware packages, rollouts and per-lock OTA jobs. */
export * from './schema-firmware.js';

/* Idempotency-Key records of money-moving and credential-creating calls. */
export * from './schema-idempotency.js';

/* Tickets of the console's live stream. */
export * from './schema-live.js';

/* Access schedules and holiday calendars. */
export * from './schema-access.js';

/* Remote unlock requests. */
export * from './schema-remote-unlock.js';

/* Notification channels. */
export * from './schema-notification.js';

/* API keys of integrators. */
export * from './schema-api-key.js';

/* Offline codes issued. */
export * from './schema-offline-code.js';

/* Two-factor sign-in. */
export * from './schema-two-factor.js';

/* Work orders. */
export * from './schema-work-order.js';
/* Stays (bookings and leases). */
export * from './schema-stay.js';

/* Backup codes for sleeping locks. */
export * from './schema-backup-code.js';
