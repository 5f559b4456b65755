/**
 * Buying, closing and refunding. The amount always comes from the package on the server.
 * Provider calls happen outside database transactions (a slow provider never holds a row lock); each
 * database change and its system-log row are one transaction (the `inTenant` of the route).
 */
import { randomBytes } from 'node:crypto';
import type { OrderRecord } from '@iot/contract';
import { and, count, eq, inArray, sql, sum } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { locks, orders, refunds } from '../../db/schema.js';
import { ApiError, conflictError, fieldError } from '../../http/api-error.js';
import { orderChanged } from './apply.js';
import { PaymentProviderError } from './provider.js';
import type { Payments } from './payments.js';
import { findOrderRow, findProduct, orderRecordOf } from './repo.js';

type InTenant = <T>(fn: (tx: Tx) => Promise<T>, options?: { read?: boolean }) => Promise<T>;

/** A new merchant number: prefix, UTC time to the second and 10 random hex digits (27 characters). */
export function newTradeNo(prefix: 'IOT' | 'RFD'): string {
  return `${prefix}${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}${randomBytes(5).toString('hex')}`;
}

/** The package, refused unless enabled and covering the locks (all of the tenant's, at most lockCount). */
async function checkPurchase(tx: Executor, productId: number, lockIds: number[]) {
  const product = await findProduct(tx, productId);
  if (!product?.enabled) throw fieldError('body.productId', '套餐不存在或已停用', 'No such package, or it is disabled');
  const unique = [...new Set(lockIds)];
  if (unique.length > product.lockCount) {
    throw fieldError('body.lockIds', `该套餐最多覆盖 ${product.lockCount} 把门锁`, `This package covers at most ${product.lockCount} locks`);
  }
  const [found] = await tx.select({ n: count() }).from(locks).where(inArray(locks.id, unique));
  if ((found?.n ?? 0) !== unique.length) throw fieldError('body.lockIds', '门锁不存在', 'No such lock');
  return { product, lockIds: unique };
}

const providerFailed = (error: unknown): never => {
  // The provider's failure rides along as the cause: the 502 is logged with its code (errors-plugin.ts).
  if (error instanceof PaymentProviderError) throw Object.assign(new ApiError('PAYMENT_UNAVAILABLE'), { cause: error });
  throw error;
};

/** Creates the prepayment at the provider, then the order (NOTPAY, with its code_url). */
export async function createOrder(payments: Payments, inTenant: InTenant, input: { tenantId: number; productId: number; lockIds: number[]; createdBy: string; ttlS: number }): Promise<OrderRecord> {
  const { product, lockIds } = await inTenant((tx) => checkPurchase(tx, input.productId, input.lockIds), { read: true });
  const outTradeNo = newTradeNo('IOT');
  const expiresAt = new Date(Date.now() + input.ttlS * 1000);
  const codeUrl = await payments.provider.createNative({
    outTradeNo, description: product.nameZh, amountFen: product.priceFen, expiresAt, notifyUrl: payments.notifyUrl('payment'),
  }).catch(providerFailed);
  return inTenant(async (tx) => {
    await checkPurchase(tx, product.id, lockIds);
    const [row] = await tx.insert(orders).values({
      tenantId: input.tenantId, outTradeNo, productId: product.id, description: product.nameZh, amountFen: product.priceFen,
      lockIds, months: product.months, codeUrl, expiresAt, createdBy: input.createdBy,
    }).returning();
    await orderChanged(tx, row as NonNullable<typeof row>, 'NOTPAY');
    return orderRecordOf(tx, row as NonNullable<typeof row>);
  });
}

/** 409 on body.outTradeNo: the order is no longer open (paid, closed or paid meanwhile). */
const notOpen = () => conflictError('body.outTradeNo', '订单已支付或已关闭，不能关闭', 'The order is already paid or closed');

/** Closes an unpaid order at the provider and here; 409 CONFLICT when it is paid (or paid meanwhile). */
export async function closeOrder(payments: Payments, inTenant: InTenant, outTradeNo: string): Promise<OrderRecord> {
  const before = await inTenant((tx) => findOrderRow(tx, outTradeNo), { read: true });
  if (!before) throw new ApiError('NOT_FOUND');
  if (before.tradeState !== 'NOTPAY' && before.tradeState !== 'USERPAYING') throw notOpen();
  // Paid at the provider but not yet here: its notification (or reconciliation) will apply the payment.
  if ((await payments.provider.closeOrder(outTradeNo).catch(providerFailed)) === 'alreadyPaid') throw notOpen();
  return inTenant(async (tx) => {
    const row = await findOrderRow(tx, outTradeNo, true);
    if (!row || (row.tradeState !== 'NOTPAY' && row.tradeState !== 'USERPAYING')) throw notOpen();
    const [closed] = await tx.update(orders).set({ tradeState: 'CLOSED', codeUrl: null, updatedAt: sql`now()` }).where(eq(orders.id, row.id)).returning();
    await orderChanged(tx, row, 'CLOSED');
    return orderRecordOf(tx, closed as NonNullable<typeof closed>);
  });
}

/**
 * Records a refund (PROCESSING) if the paid amount not yet refunded or being refunded covers it, then
 * asks the provider; its answer (or later its notification, or reconciliation) settles the refund.
 */
export async function refundOrder(payments: Payments, inTenant: InTenant, input: { outTradeNo: string; amountFen: number; reason: string; createdBy: string; tenantId: number }) {
  const { order, outRefundNo } = await inTenant(async (tx) => {
    const row = await findOrderRow(tx, input.outTradeNo, true);
    if (!row) throw new ApiError('NOT_FOUND');
    if (row.tradeState !== 'SUCCESS' && row.tradeState !== 'REFUND') throw conflictError('body.outTradeNo', '只能对已支付的订单退款', 'Only a paid order can be refunded');
    const [pending] = await tx.select({ fen: sum(refunds.amountFen).mapWith(Number) }).from(refunds)
      .where(and(eq(refunds.orderId, row.id), inArray(refunds.status, ['PROCESSING', 'SUCCESS', 'ABNORMAL'])));
    const left = row.amountFen - (pending?.fen ?? 0);
    if (input.amountFen > left) throw fieldError('body.amountFen', `最多可退 ¥${(left / 100).toFixed(2)}`, `At most ¥${(left / 100).toFixed(2)} can be refunded`);
    const number = newTradeNo('RFD');
    await tx.insert(refunds).values({
      tenantId: input.tenantId, orderId: row.id, outRefundNo: number, amountFen: input.amountFen, reason: input.reason, createdBy: input.createdBy,
    });
    return { order: row, outRefundNo: number };
  });
  const answer = await payments.provider.refund({
    outTradeNo: order.outTradeNo, outRefundNo, amountFen: input.amountFen, totalFen: order.amountFen, reason: input.reason,
    notifyUrl: payments.notifyUrl('refund'),
  }).catch((error) => (error instanceof PaymentProviderError && error.failure === 'refused' ? 'refused' as const : 'unknown' as const));
  return { outRefundNo, answer };
}
