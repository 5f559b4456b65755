/**
 * Packages, orders and refunds, written only by modules/billing. Money in fen (integers).
 * `products` is global (administrators manage it for every data centre); `orders` and `refunds` are
 * tenant-scoped with row-level security (migration *_commerce_rls.sql). WeChat Pay notifications and
 * the reconciliation job use the owner connection: a notification names its order, not a tenant.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './schema.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** 套餐: what a purchase costs and buys (months of service for up to lock_count locks). */
export const products = pgTable('products', {
  id: serial('id').primaryKey(),
  nameZh: text('name_zh').notNull(),
  nameEn: text('name_en').notNull(),
  descriptionZh: text('description_zh').notNull().default(''),
  descriptionEn: text('description_en').notNull().default(''),
  /** fen */
  priceFen: integer('price_fen').notNull(),
  lockCount: integer('lock_count').notNull(),
  months: integer('months').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
});

/** Orders, one WeChat Pay Native transaction each (out_trade_no unique). */
export const orders = pgTable('orders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  outTradeNo: text('out_trade_no').notNull(),
  productId: integer('product_id').notNull().references(() => products.id),
  description: text('description').notNull(),
  /** fen, fixed from the package when the order was created */
  amountFen: integer('amount_fen').notNull(),
  /** fen, sum of successful refunds */
  refundedFen: integer('refunded_fen').notNull().default(0),
  /** WeChat Pay trade_state */
  tradeState: text('trade_state').notNull().default('NOTPAY'),
  lockIds: integer('lock_ids').array().notNull(),
  months: integer('months').notNull(),
  codeUrl: text('code_url'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  transactionId: text('transaction_id'),
  successTime: timestamp('success_time', { withTimezone: true }),
  /** True once the paid months were added to the locks (and false again after a full refund took them back). */
  serviceApplied: boolean('service_applied').notNull().default(false),
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** The reconciliation job claims an open order by moving this forward (several instances never ask twice at once). */
  reconcileAfter: timestamp('reconcile_after', { withTimezone: true }).notNull().default(sql`now() + interval '30 seconds'`),
}, (t) => [
  uniqueIndex('orders_out_trade_no').on(t.outTradeNo),
  index('orders_tenant_created').on(t.tenantId, t.createdAt),
  index('orders_open').on(t.reconcileAfter).where(sql`trade_state in ('NOTPAY', 'USERPAYING')`),
]);

/** Refunds of an order (out_refund_no unique); status is WeChat Pay's. */
export const refunds = pgTable('refunds', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  orderId: bigint('order_id', { mode: 'number' }).notNull().references(() => orders.id),
  outRefundNo: text('out_refund_no').notNull(),
  refundId: text('refund_id'),
  /** fen */
  amountFen: integer('amount_fen').notNull(),
  reason: text('reason').notNull(),
  status: text('status').notNull().default('PROCESSING'),
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
  successTime: timestamp('success_time', { withTimezone: true }),
  reconcileAfter: timestamp('reconcile_after', { withTimezone: true }).notNull().default(sql`now() + interval '30 seconds'`),
}, (t) => [
  uniqueIndex('refunds_out_refund_no').on(t.outRefundNo),
  index('refunds_order').on(t.orderId),
  index('refunds_open').on(t.reconcileAfter).where(sql`status = 'PROCESSING'`),
]);
