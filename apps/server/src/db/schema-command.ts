/**
 * The command outbox of every device kind (下发日志 for locks, remote switching for air switches): one
 * table, written only by modules/command. Tenant-scoped with row-level security (migration
 * 0005_device_activity_rls.sql). Until migration 0068 air switches kept theirs in `air_switch_commands`.
 */
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { deviceReference, oneDevice } from './device-reference.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Every downlink is a row first. States per protocol COMMAND_STATES (ThingsBoard persistent RPC):
 * QUEUED -> SENT -> DELIVERED -> SUCCESSFUL | FAILED, plus TIMEOUT, EXPIRED, CANCELED. The device is
 * named as device-reference.ts says (check `commands_one_device`; the circuit is the one a switch command
 * acts on); each kind's policy (a sleeping lock's
 * wake window and resends, an always-online switch sent at once and never resent: max_attempts 1) is
 * modules/command's. Secret fields of a lock command's `data` are stored encrypted.
 */
export const commands = pgTable('commands', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Sent as the downlink's msgId; answered by commandResult.commandMsgId. */
  msgId: text('msg_id').notNull().unique(),
  tenantId: integer('tenant_id').notNull(),
  ...deviceReference(),
  /** protocol DownlinkType (a lock) or AirSwitchDownlinkType (an air switch: switch | thresholds). */
  type: text('type').notNull(),
  data: jsonb('data').notNull(),
  state: text('state').notNull().default('QUEUED'),
  attempts: integer('attempts').notNull().default(0),
  maxAttempts: integer('max_attempts').notNull().default(3),
  /** Username of the operator (or `system`). */
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
  /** A QUEUED command not sent by then is EXPIRED. */
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  resultCode: integer('result_code'),
  resultDetail: text('result_detail'),
  /** The credential slot a lock's result names. */
  resultSlot: integer('result_slot'),
}, (t) => [
  oneDevice('commands_one_device'),
  index('commands_lock_state').on(t.lockId, t.state, t.id),
  index('commands_state_expiry').on(t.state, t.expiresAt),
  index('commands_tenant_time').on(t.tenantId, t.createdAt),
  index('commands_air_switch').on(t.airSwitchId, t.id),
  // Attention filters (lockDevice/attention.ts): a lock's newest configuration push, its recent failures.
  index('commands_lock_config_push').on(t.lockId, t.id).where(sql`type = 'configPush'`),
  index('commands_lock_failed').on(t.lockId, t.completedAt).where(sql`state in ('FAILED', 'TIMEOUT', 'EXPIRED')`),
]);
