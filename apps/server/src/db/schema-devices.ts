/**
 * The device registry (table `devices`, written only by modules/device): one row for every device of
 * every kind that may connect, holding what the gateway authenticates it by: its MQTT client id (a
 * lock's IMEI, an air switch's serial), unique across kinds, and the SHA-256 of its device secret. The
 * row names its device as alerts and commands do (device_kind, then lock_id or air_switch_id); each
 * kind's own table keeps what only that kind has. Tenant-scoped with row-level security (migration
 * 0069_device_registry.sql).
 *
 * The composite foreign keys tie the row to its device: the client id and data centre are the lock's
 * IMEI and tenant (the switch's serial and tenant), so the two can never disagree, and deleting the
 * device deletes its registration.
 */
import { foreignKey, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { locks, tenants } from './schema.js';
import { airSwitches } from './schema-airswitch.js';
import { oneDevice } from './device-reference.js';

export const devices = pgTable('devices', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  /** contract DEVICE_KINDS: lock | airSwitch (the kind of the device's device type). */
  deviceKind: text('device_kind').notNull(),
  /** The lock (device_kind lock). */
  lockId: integer('lock_id'),
  /** The air switch (device_kind airSwitch). */
  airSwitchId: integer('air_switch_id'),
  /** MQTT client id, username and topic name: the lock's IMEI, the switch's serial (docs/protocol.md "Authentication"). */
  clientId: text('client_id').notNull(),
  /** SHA-256 hex of the device secret (a random 128-bit secret, so no slow hash; crypto/device-secret.ts). */
  secretHash: text('secret_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('devices_client_id').on(t.clientId),
  uniqueIndex('devices_lock').on(t.lockId),
  uniqueIndex('devices_air_switch').on(t.airSwitchId),
  foreignKey({ name: 'devices_lock_identity', columns: [t.lockId, t.tenantId, t.clientId], foreignColumns: [locks.id, locks.tenantId, locks.imei] }).onDelete('cascade'),
  foreignKey({ name: 'devices_air_switch_identity', columns: [t.airSwitchId, t.tenantId, t.clientId], foreignColumns: [airSwitches.id, airSwitches.tenantId, airSwitches.serial] }).onDelete('cascade'),
  oneDevice('devices_one_device', { circuit: false }),
]);
