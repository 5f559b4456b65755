/**
 * Order, refund and package queries. Tenant reads run in the tenant's transaction;
 * notification and reconciliation code passes the owner connection and names orders by out_trade_no.
 */
import type { OrderRecord, Page, ProductRecord, RefundRecord, TradeState } from '@iot/contract';
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orders, products, refunds } from '../../db/schema.js';
import { containsPattern, iso } from '../../db/sql.js';

export type OrderRow = typeof orders.$inferSelect;
type RefundRow = typeof refunds.$inferSelect;

export interface OrderFilter {
  tradeState?: TradeState;
  keyword?: string;
  startTime?: string;
  endTime?: string;
}

function whereOf(filter: OrderFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.tradeState) conditions.push(eq(orders.tradeState, filter.tradeState));
  if (filter.keyword) {
    const pattern = containsPattern(filter.keyword);
    conditions.push(or(ilike(orders.outTradeNo, pattern), ilike(orders.transactionId, pattern)) as SQL);
  }
  if (filter.startTime) conditions.push(gte(orders.createdAt, new Date(filter.startTime)));
  if (filter.endTime) conditions.push(lte(orders.createdAt, new Date(filter.endTime)));
  return conditions.length ? and(...conditions) : undefined;
}

const refundRecord = (row: RefundRow): RefundRecord => ({
  id: row.id, outRefundNo: row.outRefundNo, refundId: row.refundId, amountFen: row.amountFen, reason: row.reason,
  status: row.status as RefundRecord['status'], createdBy: row.createdBy, createdAt: iso(row.createdAt), successTime: iso(row.successTime),
});

/** Order rows as records, with their refunds (oldest first). */
async function recordsOf(db: Executor, rows: OrderRow[]): Promise<OrderRecord[]> {
  const ids = rows.map((row) => row.id);
  const refundRows = ids.length ? await db.select().from(refunds).where(inArray(refunds.orderId, ids)).orderBy(asc(refunds.id)) : [];
  return rows.map((row) => ({
    id: row.id, outTradeNo: row.outTradeNo, productId: row.productId, description: row.description, amountFen: row.amountFen,
    refundedFen: row.refundedFen, tradeState: row.tradeState as TradeState, lockIds: row.lockIds, months: row.months,
    codeUrl: row.tradeState === 'NOTPAY' || row.tradeState === 'USERPAYING' ? row.codeUrl : null,
    expiresAt: iso(row.expiresAt), createdAt: iso(row.createdAt), successTime: iso(row.successTime), transactionId: row.transactionId,
    createdBy: row.createdBy, refunds: refundRows.filter((refund) => refund.orderId === row.id).map(refundRecord),
  }));
}

/** A page of orders, newest first. */
export async function listOrders(db: Executor, filter: OrderFilter, current: number, size: number): Promise<Page<OrderRecord>> {
  const where = whereOf(filter);
  const [total] = await db.select({ n: count() }).from(orders).where(where);
  const rows = await db.select().from(orders).where(where).orderBy(desc(orders.id)).limit(size).offset((current - 1) * size);
  return { records: await recordsOf(db, rows), total: total?.n ?? 0, current, size };
}

/** Up to `max` + 1 orders for an export, newest first. */
export async function exportOrders(db: Executor, filter: OrderFilter, max: number): Promise<OrderRecord[]> {
  const rows = await db.select().from(orders).where(whereOf(filter)).orderBy(desc(orders.id)).limit(max + 1);
  return recordsOf(db, rows);
}

/** One order by out_trade_no (locked FOR UPDATE with `lock`), or undefined. */
export async function findOrderRow(db: Executor, outTradeNo: string, lock = false): Promise<OrderRow | undefined> {
  const query = db.select().from(orders).where(eq(orders.outTradeNo, outTradeNo));
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** The record of one order row. */
export async function orderRecordOf(db: Executor, row: OrderRow): Promise<OrderRecord> {
  const [record] = await recordsOf(db, [row]);
  return record as OrderRecord;
}

const productRecord = (row: typeof products.$inferSelect): ProductRecord => ({
  id: row.id, nameZh: row.nameZh, nameEn: row.nameEn, descriptionZh: row.descriptionZh, descriptionEn: row.descriptionEn,
  priceFen: row.priceFen, lockCount: row.lockCount, months: row.months, enabled: row.enabled,
});

/** Every package, by price. */
export async function listProducts(db: Executor): Promise<ProductRecord[]> {
  return (await db.select().from(products).orderBy(asc(products.priceFen), asc(products.id))).map(productRecord);
}

/** One package, or undefined. */
export async function findProduct(db: Executor, id: number): Promise<ProductRecord | undefined> {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  return row && productRecord(row);
}

/** Inserts or updates a package; undefined when `id` names none. */
export async function saveProduct(db: Executor, input: Omit<ProductRecord, 'id'> & { id?: number }): Promise<ProductRecord | undefined> {
  const { id, ...values } = input;
  const [row] = id === undefined
    ? await db.insert(products).values(values).returning()
    : await db.update(products).set(values).where(eq(products.id, id)).returning();
  return row && productRecord(row);
}
