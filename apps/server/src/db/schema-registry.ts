/**
 * Device registry tables: device types (设备类型) and lock groups (分组管理). Tenant-scoped
 * with row-level security (migration *_registry_rls.sql). Written only by modules/deviceType and
 * modules/lockGroup.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { locks, tenants } from './schema.js';

/**
 * A device type of a data centre, found by its model code (`locks.model` names it; no foreign key, so
 * fixtures and devices of an unknown model keep working with the contract's DEFAULT_LOCK_MODEL).
 */
export const deviceTypes = pgTable('device_types', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  /** contract DEVICE_KINDS: lock | airSwitch. */
  kind: text('kind').notNull().default('lock'),
  model: text('model').notNull(),
  vendor: text('vendor').notNull().default('ZIGUANG'),
  /** contract CONNECTIVITIES: nbiotSleeping | alwaysOnline. */
  connectivity: text('connectivity').notNull(),
  /** s */
  heartbeatIntervalS: integer('heartbeat_interval_s').notNull(),
  capacityUsers: integer('capacity_users').notNull(),
  capacityPasswords: integer('capacity_passwords').notNull(),
  capacityCards: integer('capacity_cards').notNull(),
  capacityFingerprints: integer('capacity_fingerprints').notNull(),
  passwordMinDigits: integer('password_min_digits').notNull(),
  passwordMaxDigits: integer('password_max_digits').notNull(),
  /** days */
  maxValidityDays: integer('max_validity_days').notNull(),
  /** protocol OPEN_METHODS. */
  unlockMethods: text('unlock_methods').array().notNull().default(sql`'{}'::text[]`),
  firmwareFamily: text('firmware_family').notNull().default(''),
  /** Heartbeat intervals the device accepts, s (contract ratings.ts heartbeatRange). */
  heartbeatMinS: integer('heartbeat_min_s').notNull().default(10),
  heartbeatMaxS: integer('heartbeat_max_s').notNull().default(86_400),
  /** Electrical ratings (contract ratings.ts electricalRatings): all set for an air switch type, all null for a lock type. */
  circuits: integer('circuits'),
  /** Rated current In, A. */
  ratedCurrentA: integer('rated_current_a'),
  /** Rated voltage Un, V. */
  ratedVoltageV: integer('rated_voltage_v'),
  /** Residual-current settings the device supports, mA. */
  leakageMinMa: integer('leakage_min_ma'),
  leakageMaxMa: integer('leakage_max_ma'),
  /** Matter DoorLock attributes: schedules per user, holiday schedules per lock, credential rules (lockModels.ts DEFAULT_ACCESS_CAPACITY). */
  weekDaySchedulesPerUser: integer('week_day_schedules_per_user').notNull().default(7),
  yearDaySchedulesPerUser: integer('year_day_schedules_per_user').notNull().default(4),
  holidaySchedules: integer('holiday_schedules').notNull().default(16),
  credentialRulesSupport: text('credential_rules_support').array().notNull().default(sql`'{single}'::text[]`),
  /** Backup codes each lock of the type keeps installed (contract BACKUP_CODE_POOL_DEFAULT; 0: none; docs/stays.md "Backup codes"). */
  backupCodePool: integer('backup_code_pool').notNull().default(3),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('device_types_tenant_model').on(t.tenantId, t.model)]);

/** Named groups of locks per data centre (a building, a customer, a project). */
export const lockGroups = pgTable('lock_groups', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [uniqueIndex('lock_groups_tenant_name').on(t.tenantId, t.name)]);

/** Group membership (many-to-many); tenant_id repeated for row-level security. */
export const lockGroupMembers = pgTable('lock_group_members', {
  groupId: integer('group_id').notNull().references(() => lockGroups.id, { onDelete: 'cascade' }),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id').notNull(),
}, (t) => [primaryKey({ columns: [t.groupId, t.lockId] }), index('lock_group_members_lock').on(t.lockId)]);
