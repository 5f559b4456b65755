/**
 * Work orders (docs/work-orders.md), owned by modules/workOrder: one row per order with the
 * locks and alerts it links as arrays (an order links a handful; GIN indexes answer "orders of this
 * lock / alert"). Tenant-scoped with row-level security (migration *_work_orders.sql).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './schema.js';
import { accounts } from './schema-identity.js';

export const workOrders = pgTable('work_orders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  title: text('title').notNull(),
  /** Contract WORK_ORDER_KINDS. */
  kind: text('kind').notNull(),
  /** low | normal | high | urgent. */
  priority: text('priority').notNull().default('normal'),
  /** OPEN | IN_PROGRESS | DONE | CANCELLED (contract WORK_ORDER_TRANSITIONS). */
  state: text('state').notNull().default('OPEN'),
  assigneeId: integer('assignee_id').references(() => accounts.id, { onDelete: 'set null' }),
  dueAt: timestamp('due_at', { withTimezone: true }),
  notes: text('notes').notNull().default(''),
  /** locks.id values (at least one). */
  lockIds: integer('lock_ids').array().notNull(),
  /** alerts.id values it came from. */
  alertIds: bigint('alert_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
  /** Closing a battery order: the new reading, %. */
  battery: integer('battery'),
  /** Locks whose heartbeat after closing confirmed the reading; all of them: confirmed_at. */
  confirmedLockIds: integer('confirmed_lock_ids').array().notNull().default(sql`'{}'::integer[]`),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The operator's username, or `rule:<id>` when a notification rule opened it. */
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  closedAt: timestamp('closed_at', { withTimezone: true }),
}, (t) => [
  index('work_orders_tenant').on(t.tenantId, t.id),
  index('work_orders_locks').using('gin', t.lockIds),
  index('work_orders_alerts').using('gin', t.alertIds),
]);

/**
 * Photos of a work order (the technician's proof: the new battery, the damaged strike plate), owned by
 * modules/workOrder: the image bytes in the row (at most WORK_ORDER_PHOTOS_MAX of at most
 * WORK_ORDER_PHOTO_MAX_BYTES each per order, so an order's photos stay a few MiB), deleted with their
 * order's data centre rows only through the module. Tenant-scoped with row-level security.
 */
/** PostgreSQL bytea (drizzle-orm 0.45 has no built-in column for it); written and read through SQL in the module. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

export const workOrderPhotos = pgTable('work_order_photos', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  workOrderId: bigint('work_order_id', { mode: 'number' }).notNull().references(() => workOrders.id, { onDelete: 'cascade' }),
  /** The uploader's file name (contract uploadFileName rules). */
  fileName: text('file_name').notNull(),
  /** image/jpeg | image/png | image/webp, from the bytes, not the client's claim. */
  contentType: text('content_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  /** Pixels, read from the image's header. */
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  data: bytea('data').notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('work_order_photos_order').on(t.workOrderId, t.id)]);
