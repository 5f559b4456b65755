/**
 * Notification tables (issue #25), owned by modules/notification: the channels of each data centre.
 * Everything secret about a channel (a robot URL with its token, a signing secret, the SMTP password)
 * is one SecretBox-sealed JSON value; `settings` holds only what the console may show. Tenant-scoped
 * with row-level security (migration *_notification_channels.sql).
 */
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './schema.js';

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
