/**
 * Alerts of every device kind (报警日志 / 门锁警告, the air switches' alarms): one table, one lifecycle
 * (modules/deviceAlert, its only writer). Tenant-scoped with row-level security (migration
 * 0005_device_activity_rls.sql). Until migration 0067 air switches kept theirs in `air_switch_alerts`.
 */
import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { locks } from './schema.js';
import { airSwitches } from './schema-airswitch.js';

/**
 * One row per occurrence of a condition on a device, with a lifecycle active|cleared x
 * unacknowledged|acknowledged. A repeat of an active alert updates it (occurrences, last_at); at most one
 * active alert per key: (lock, kind) for a lock, (air switch, circuit, kind) for an air switch. The
 * device is named by the column of its kind; the check `alerts_one_device` keeps the others null.
 */
export const alerts = pgTable('alerts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  /** contract DEVICE_KINDS: lock | airSwitch. */
  deviceKind: text('device_kind').notNull(),
  /** The lock (device_kind lock). */
  lockId: integer('lock_id').references(() => locks.id, { onDelete: 'cascade' }),
  /** The air switch and its circuit, 1-based (device_kind airSwitch). */
  airSwitchId: integer('air_switch_id').references(() => airSwitches.id, { onDelete: 'cascade' }),
  circuit: integer('circuit'),
  /** A lock: protocol ALARM_KINDS or DERIVED_ALARM_KINDS key; an air switch: `trip` or protocol AIR_SWITCH_ALARM_KINDS key. */
  kind: text('kind').notNull(),
  /** critical | major | minor | warning. */
  severity: text('severity').notNull(),
  /** active | cleared. */
  state: text('state').notNull().default('active'),
  occurrences: integer('occurrences').notNull().default(1),
  detail: text('detail'),
  firstAt: timestamp('first_at', { withTimezone: true }).notNull().defaultNow(),
  lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
  clearedAt: timestamp('cleared_at', { withTimezone: true }),
  acknowledgedBy: text('acknowledged_by'),
  acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
  /** The operator's note with the acknowledgement, at most ACKNOWLEDGE_NOTE_MAX characters. */
  acknowledgeNote: text('acknowledge_note'),
}, (t) => [
  check('alerts_one_device', sql`(device_kind = 'lock' and lock_id is not null and air_switch_id is null and circuit is null)
    or (device_kind = 'airSwitch' and air_switch_id is not null and circuit is not null and lock_id is null)`),
  uniqueIndex('alerts_one_active').on(t.lockId, t.kind).where(sql`state = 'active'`),
  uniqueIndex('alerts_air_switch_one_active').on(t.airSwitchId, t.circuit, t.kind).where(sql`state = 'active'`),
  index('alerts_air_switch').on(t.airSwitchId),
  index('alerts_tenant_time').on(t.tenantId, t.deviceKind, t.lastAt),
]);
