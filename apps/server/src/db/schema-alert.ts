/**
 * Alerts of every device kind (报警日志 / 门锁警告, the air switches' alarms): one table, one lifecycle
 * (modules/deviceAlert, its only writer). Tenant-scoped with row-level security (migration
 * 0005_device_activity_rls.sql). Until migration 0067 air switches kept theirs in `air_switch_alerts`.
 */
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { deviceReference, oneDevice } from './device-reference.js';

/**
 * One row per occurrence of a condition on a device, with a lifecycle active|cleared x
 * unacknowledged|acknowledged. A repeat of an active alert updates it (occurrences, last_at); at most one
 * active alert per key: (lock, kind) for a lock, (air switch, circuit, kind) for an air switch. The
 * device is named as device-reference.ts says (check `alerts_one_device`).
 */
export const alerts = pgTable('alerts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  ...deviceReference(),
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
  oneDevice('alerts_one_device'),
  uniqueIndex('alerts_one_active').on(t.lockId, t.kind).where(sql`state = 'active'`),
  uniqueIndex('alerts_air_switch_one_active').on(t.airSwitchId, t.circuit, t.kind).where(sql`state = 'active'`),
  index('alerts_air_switch').on(t.airSwitchId),
  index('alerts_tenant_time').on(t.tenantId, t.deviceKind, t.lastAt),
]);
