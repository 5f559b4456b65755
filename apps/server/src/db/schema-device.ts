/**
 * Device activity tables: the heartbeat log, the uplink log of every device kind (上报日志), unlock records,
 * (alerts: schema-alert.ts; the command outbox: schema-command.ts). Tenant-scoped with row-level security
 * (migration 0005_device_activity_rls.sql). Times are `timestamptz`; units are in column comments.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';
import { locks } from './schema.js';

/**
 * Heartbeat log, partitioned by day of `received_at` (UTC) with a default partition (migration
 * 0063_heartbeat_partitions.sql, db/partitions.ts); drizzle does not model partitioning, so this is the
 * parent's shape. A partitioned table's unique indexes must hold the partition key, hence the primary
 * key (id, received_at) and a plain (lock, seq) index: the dedupe of a redelivered uplink is
 * insertHeartbeats's (logHeartbeat/writer.ts). `lock_id` is not a foreign key: its per-row check (a
 * `FOR KEY SHARE` lookup of the lock) cost a quarter of each ingest batch (bench/RESULTS.md,
 * 2026-11-22); the gateway writes only authenticated locks' ids, and locks are disabled, not deleted,
 * by the console.
 */
export const heartbeats = pgTable('heartbeats', {
  id: bigserial('id', { mode: 'number' }).notNull(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull(),
  seq: integer('seq').notNull(),
  battery: integer('battery').notNull(),
  rssi: integer('rssi').notNull(),
  snr: real('snr').notNull(),
  firmwareVersion: text('firmware_version').notNull(),
  /** Device clock, ms since epoch. */
  deviceTs: timestamp('device_ts', { withTimezone: true }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.id, t.receivedAt] }),
  index('heartbeats_lock_seq').on(t.lockId, t.seq),
  // A lock's page, count and chart read this index alone (index-only scans): (lock, time, id) is their
  // order, tenant_id is the row-level security filter, and the rest are the columns the page and chart
  // show. Without them each of a page's 20 rows was a random read of the table, and at 100 M heartbeats
  // a lock's page and chart missed their 50 ms at 10 connections (bench/heartbeats-100m.ts). Key columns,
  // not INCLUDE, which the schema cannot state; the cost: the index about doubles (as large as the table)
  // and an insert takes ~18 % longer (bench/RESULTS.md).
  index('heartbeats_lock_time').on(t.lockId, t.receivedAt, t.id, t.tenantId, t.battery, t.rssi, t.snr, t.seq, t.deviceTs, t.firmwareVersion),
  // A data centre's newest heartbeats (its list without a lock, newest first) and their capped count.
  index('heartbeats_tenant_id').on(t.tenantId, t.id),
]);

/**
 * The uplink log of every device kind (上报日志 for locks, raw telemetry for air switches), as received;
 * one per (device, seq) (uplinkLog/writer.ts dedupes). Partitioned by LIST (device_kind) into one
 * subtree per kind, each partitioned by day (docs/partitions.md): `lock_uplinks` (kept
 * UPLINK_RETENTION_DAYS) and `air_switch_uplinks` (kept TELEMETRY_RETENTION_DAYS), so each kind's
 * retention still drops whole days. Each subtree holds its kind's indexes (migrations 0064, 0070):
 * lock_uplinks (lock_id, seq), (lock_id, received_at), (tenant_id, received_at), its primary key
 * (id, received_at) and the lock foreign key; air_switch_uplinks (air_switch_id, seq), BRIN received_at,
 * (id, received_at). A query names its kind (`device_kind = 'lock'`, a literal), so only that subtree is read.
 */
export const uplinks = pgTable('uplinks', {
  /** One sequence for every kind (uplinks_id_seq). */
  id: bigint('id', { mode: 'number' }).notNull().default(sql`nextval('uplinks_id_seq'::regclass)`),
  tenantId: integer('tenant_id').notNull(),
  /** contract DEVICE_KINDS: the partition. */
  deviceKind: text('device_kind').notNull(),
  /** The lock (device_kind lock; not null in lock_uplinks). */
  lockId: integer('lock_id'),
  /** The air switch (device_kind airSwitch; not null in air_switch_uplinks). */
  airSwitchId: integer('air_switch_id'),
  seq: integer('seq').notNull(),
  /** A lock message's msgId (not null in lock_uplinks); an air switch message has none. */
  msgId: text('msg_id'),
  type: text('type').notNull(),
  data: jsonb('data').notNull(),
  /** Device clock. */
  deviceTs: timestamp('device_ts', { withTimezone: true }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Unlock records (开锁日志). */
export const openRecords = pgTable('open_records', {
  id: bigserial('id', { mode: 'number' }).notNull(),
  tenantId: integer('tenant_id').notNull(),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  uplinkId: bigint('uplink_id', { mode: 'number' }),
  /** protocol OPEN_METHODS. */
  method: text('method').notNull(),
  slot: integer('slot'),
  userSlot: integer('user_slot'),
  success: boolean('success').notNull(),
  /** Lock clock at the attempt. */
  lockTime: timestamp('lock_time', { withTimezone: true }).notNull(),
  /** Why a failed attempt was refused (contract ACCESS_REFUSALS). */
  refusal: text('refusal'),
  /** Remote unlock: the operator who asked. */
  operator: text('operator'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.id, t.receivedAt] }),
  index('open_records_lock_time').on(t.lockId, t.receivedAt),
  index('open_records_tenant_time').on(t.tenantId, t.receivedAt),
]);
