/**
 * Notification tables, owned by modules/notification: the channels and rules of each data
 * centre, the notifications rules produced and their deliveries (outbox and delivery log).
 * Everything secret about a channel (a robot URL with its token, a signing secret, the SMTP password)
 * is one SecretBox-sealed JSON value; `settings` holds only what the console may show. Tenant-scoped
 * with row-level security (migration *_notification_channels.sql).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './schema.js';
import { accounts } from './schema-identity.js';

/** A place notifications go: a group robot, a webhook or an e-mail account. */
export const notificationChannels = pgTable('notification_channels', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  /** dingtalk | wecom | feishu | webhook | email (contract NOTIFICATION_CHANNEL_KINDS). */
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  /** zh-CN | en-US: the language of its messages. */
  language: text('language').notNull().default('zh-CN'),
  /** What may be shown: the masked URL, or the SMTP settings without the password. */
  settings: jsonb('settings').notNull(),
  /** SecretBox-sealed JSON `{ url?, secret?, password? }`. */
  sealed: text('sealed').notNull(),
  /** The secret's last 4 characters ('' without one). */
  secretHint: text('secret_hint').notNull().default(''),
  lastTestAt: timestamp('last_test_at', { withTimezone: true }),
  lastTestSent: boolean('last_test_sent'),
  lastTestError: text('last_test_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('notification_channels_tenant').on(t.tenantId, t.id)]);

/** What to notify (kinds, minimum severity), where (empty scope lists: every device) and to which channels. */
export const notificationRules = pgTable('notification_rules', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  name: text('name').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  kinds: text('kinds').array().notNull().default(sql`'{}'::text[]`),
  minSeverity: text('min_severity').notNull().default('warning'),
  buildings: text('buildings').array().notNull().default(sql`'{}'::text[]`),
  groupIds: integer('group_ids').array().notNull().default(sql`'{}'::integer[]`),
  /** device_types.model values. */
  deviceTypes: text('device_types').array().notNull().default(sql`'{}'::text[]`),
  channelIds: bigint('channel_ids', { mode: 'number' }).array().notNull(),
  /** s; 0: no storm control. */
  stormWindowS: integer('storm_window_s').notNull().default(300),
  /** Minutes without acknowledgement before the escalation channels are notified; 0: no escalation. */
  escalateAfterMin: integer('escalate_after_min').notNull().default(0),
  escalationChannelIds: bigint('escalation_channel_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
  /** Explicit recipients (accounts and roles of the data centre): inbox and e-mail to a verified address, besides the default recipients. */
  recipientAccountIds: integer('recipient_account_ids').array().notNull().default(sql`'{}'::integer[]`),
  recipientRoleIds: integer('recipient_role_ids').array().notNull().default(sql`'{}'::integer[]`),
  /** Recipients of the escalation, as escalationChannelIds. */
  escalationAccountIds: integer('escalation_account_ids').array().notNull().default(sql`'{}'::integer[]`),
  escalationRoleIds: integer('escalation_role_ids').array().notNull().default(sql`'{}'::integer[]`),
  /** Quiet hours `HH:MM` to `HH:MM` in the data centre's time zone (may span midnight); null: none. */
  quietStart: text('quiet_start'),
  quietEnd: text('quiet_end'),
  /** Notifications of the rule sent to channels per rolling hour; beyond it they are logged suppressed (`hourly cap`); 0: no cap. */
  hourlyCap: integer('hourly_cap').notNull().default(0),
  /** A work order of this kind (contract WORK_ORDER_KINDS) opened for a matched lock alert unless one is open (modules/workOrder); null: none. */
  openWorkOrder: text('open_work_order'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('notification_rules_tenant').on(t.tenantId, t.id)]);

/** One notification of a rule: an alarm of a kind on a device, counting its repeats within the storm window. */
export const notifications = pgTable('notifications', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  ruleId: bigint('rule_id', { mode: 'number' }).references(() => notificationRules.id, { onDelete: 'set null' }),
  kind: text('kind').notNull(),
  severity: text('severity').notNull(),
  /** lock | airSwitch. */
  deviceKind: text('device_kind').notNull(),
  deviceId: integer('device_id').notNull(),
  /** The alert (alerts.id, of the device kind above); null: an event without one. */
  alertId: bigint('alert_id', { mode: 'number' }),
  /** Alarms counted into it (1 + repeats suppressed by storm control). */
  count: integer('count').notNull().default(1),
  firstAt: timestamp('first_at', { withTimezone: true }).notNull().defaultNow(),
  lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
  /** When the escalation is due unless the alert is acknowledged first; null: none (left, done or stopped). */
  escalateAt: timestamp('escalate_at', { withTimezone: true }),
  escalatedAt: timestamp('escalated_at', { withTimezone: true }),
}, (t) => [
  index('notifications_escalation').on(t.escalateAt).where(sql`escalate_at is not null`),
  index('notifications_storm').on(t.ruleId, t.deviceKind, t.deviceId, t.kind, t.firstAt),
  index('notifications_tenant').on(t.tenantId, t.id),
]);

/**
 * Deliveries of notifications to channels: the outbox (pending, due at next_attempt_at, which doubles
 * as the claim lease) and the delivery log (sent, failed with the reason, suppressed by storm control).
 */
export const notificationDeliveries = pgTable('notification_deliveries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  notificationId: bigint('notification_id', { mode: 'number' }).notNull().references(() => notifications.id, { onDelete: 'cascade' }),
  channelId: bigint('channel_id', { mode: 'number' }).references(() => notificationChannels.id, { onDelete: 'set null' }),
  /** A recipient's e-mail (sent through the e-mail channel `channel_id` to the account's verified address); null: the channel's own. */
  accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
  /** pending | sent | failed | suppressed. */
  state: text('state').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  lastError: text('last_error'),
  /** A delivery of the rule's escalation (not acknowledged in time). */
  escalation: boolean('escalation').notNull().default(false),
  /** The first delivery over the rule's hourly cap: its message says that further ones this hour are only logged. */
  capReached: boolean('cap_reached').notNull().default(false),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('notification_deliveries_due').on(t.nextAttemptAt).where(sql`state = 'pending'`),
  index('notification_deliveries_tenant').on(t.tenantId, t.id),
]);

/**
 * The in-console inbox: one row per notification and recipient account, read or not.
 * Row-level security per data centre; the routes scope every query to the caller's account too.
 */
export const notificationInbox = pgTable('notification_inbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  notificationId: bigint('notification_id', { mode: 'number' }).notNull().references(() => notifications.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  readAt: timestamp('read_at', { withTimezone: true }),
}, (t) => [
  index('notification_inbox_account').on(t.tenantId, t.accountId, t.id),
  index('notification_inbox_unread').on(t.tenantId, t.accountId).where(sql`read_at is null`),
]);
