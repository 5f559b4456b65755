/**
 * Open-platform tables (订阅管理), owned by modules/subscription: customer codes, their
 * signing secrets (sealed with the SecretBox, since signing needs them in clear), their push
 * configuration with the endpoint's health, and the delivery outbox. Tenant-scoped with row-level
 * security (migration *_subscription_rls.sql); the delivery worker uses the owner connection.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './schema.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** An integration of a tenant (a customer's own system). `code` is unique across tenants (it names the sender in every push). */
export const customerCodes = pgTable('customer_codes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  code: text('code').notNull(),
  name: text('name').notNull(),
  contact: text('contact').notNull().default(''),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('customer_codes_code').on(t.code), index('customer_codes_tenant').on(t.tenantId, t.id)]);

/** Signing secrets. valid_until null: current; else the previous secret signs until then (rotation grace). */
export const customerKeys = pgTable('customer_keys', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  customerCodeId: bigint('customer_code_id', { mode: 'number' }).notNull().references(() => customerCodes.id, { onDelete: 'cascade' }),
  /** SecretBox-sealed secret. */
  secretSealed: text('secret_sealed').notNull(),
  /** The secret's last 4 characters, for the console. */
  hint: text('hint').notNull(),
  validUntil: timestamp('valid_until', { withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [index('customer_keys_code').on(t.customerCodeId)]);

/** Push configuration (one per customer code) and the endpoint's health. */
export const pushConfigs = pgTable('push_configs', {
  customerCodeId: bigint('customer_code_id', { mode: 'number' }).primaryKey().references(() => customerCodes.id, { onDelete: 'cascade' }),
  tenantId: integer('tenant_id').notNull(),
  url: text('url').notNull(),
  eventTypes: text('event_types').array().notNull(),
  /** Only locks in these buildings; empty: every lock. */
  buildings: text('buildings').array().notNull().default(sql`'{}'::text[]`),
  enabled: boolean('enabled').notNull().default(true),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  /** Set when failing for PUSH_PAUSE_AFTER_S; the worker skips the endpoint until resumed. */
  pausedAt: timestamp('paused_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('push_configs_tenant').on(t.tenantId)]);

/**
 * The delivery outbox: one row per (event, customer code), written in the transaction of the event.
 * pending -> delivered | dead. next_attempt_at doubles as the claim lease while an attempt runs.
 */
export const pushDeliveries = pgTable('push_deliveries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  customerCodeId: bigint('customer_code_id', { mode: 'number' }).notNull().references(() => customerCodes.id, { onDelete: 'cascade' }),
  /** Stable across retries and replays: the receiver's deduplication key. */
  eventId: uuid('event_id').notNull(),
  eventType: text('event_type').notNull(),
  /** Null for control events (test). */
  lockId: integer('lock_id'),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  data: jsonb('data').notNull(),
  state: text('state').notNull().default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  lastStatus: integer('last_status'),
  /** ms */
  lastLatencyMs: integer('last_latency_ms'),
  lastError: text('last_error'),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  replayOf: bigint('replay_of', { mode: 'number' }),
  createdAt: createdAt(),
}, (t) => [
  index('push_deliveries_due').on(t.nextAttemptAt).where(sql`state = 'pending'`),
  index('push_deliveries_order').on(t.customerCodeId, t.lockId, t.id).where(sql`state = 'pending'`),
  index('push_deliveries_tenant_time').on(t.tenantId, t.createdAt),
  index('push_deliveries_event').on(t.eventId),
]);
