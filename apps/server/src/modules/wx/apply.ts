/**
 * Applies what WeChat Pay says about an order or a refund (notifications and reconciliation, issue
 * #15), idempotently: each change runs in one transaction holding the order's row lock, so 20
 * identical notifications at once change the state once. A transaction or refund that does not match
 * the merchant (mchid, appid) or the order (out_trade_no, amount and currency, transaction_id) is
 * refused before anything is written and changes nothing.
 * A payment extends the covered locks' service by the order's months; a full refund takes them back.
 */
import { TRADE_STATES, type TradeState } from '@iot/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orders, refunds } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { insertAudit } from '../auditLog/repo.js';
import { extendService, revokeService } from '../lockDevice/service-period.js';
import type { RefundResource, TransactionResource } from './client.js';
import { NotificationRefused } from './notification.js';
import { ORDER_CURRENCY } from './resources.js';
import { findOrderRow, type OrderRow } from './repo.js';
import type { MerchantSettings } from './settings.js';

export type Outcome = 'applied' | 'unchanged';
const PAID: readonly string[] = ['SUCCESS', 'REFUND'];

const providerAudit = (db: Executor, order: OrderRow, action: string, detail: Record<string, unknown>) => insertAudit(db, {
  tenantId: order.tenantId, accountId: null, username: 'wechatpay', action, target: order.outTradeNo, result: 'success', clientIp: '', detail,
});

/** Emits `order.state` (docs/events.md) for `order` now in `tradeState`, with the transaction. */
export function orderChanged(tx: Executor, order: { id: number; tenantId: number }, tradeState: TradeState): Promise<void> {
  return emit(tx, 'order.state', { tenantId: order.tenantId, orderId: order.id, tradeState });
}

/** Applies a transaction resource (TRANSACTION.* notification or query answer) inside `tx`. */
export async function applyTransaction(tx: Executor, settings: Pick<MerchantSettings, 'mchid' | 'appid'>, resource: TransactionResource): Promise<Outcome> {
  if (resource.mchid !== settings.mchid) throw new NotificationRefused(400, 'mchid does not match');
  if (resource.appid !== settings.appid) throw new NotificationRefused(400, 'appid does not match');
  if (!(TRADE_STATES as readonly string[]).includes(resource.trade_state)) throw new NotificationRefused(400, 'unknown trade_state');
  const order = await findOrderRow(tx, resource.out_trade_no, true);
  if (!order) throw new NotificationRefused(404, 'unknown out_trade_no');
  const total = resource.amount?.total;
  if (total !== undefined ? total !== order.amountFen : resource.trade_state === 'SUCCESS') throw new NotificationRefused(400, 'amount does not match');
  const state = resource.trade_state as TradeState;
  if (state === 'SUCCESS') {
    // Everything the payment relies on, before anything is applied (a replay of the recorded payment passes).
    if (!resource.transaction_id) throw new NotificationRefused(400, 'transaction_id missing');
    if (resource.amount?.currency !== ORDER_CURRENCY) throw new NotificationRefused(400, 'currency does not match');
    if (order.transactionId && order.transactionId !== resource.transaction_id) throw new NotificationRefused(400, 'transaction_id does not match');
  }
  if (PAID.includes(order.tradeState) || state === order.tradeState) return 'unchanged';
  if (state === 'SUCCESS' && resource.transaction_id) {
    await tx.update(orders).set({
      tradeState: 'SUCCESS', transactionId: resource.transaction_id, successTime: resource.success_time ? new Date(resource.success_time) : new Date(),
      serviceApplied: true, codeUrl: null, updatedAt: sql`now()`,
    }).where(eq(orders.id, order.id));
    await orderChanged(tx, order, 'SUCCESS');
    await extendService(tx, order.tenantId, order.lockIds, order.months);
    await providerAudit(tx, order, 'wxpay-paid', { outTradeNo: order.outTradeNo, amountFen: order.amountFen, lockIds: order.lockIds });
    return 'applied';
  }
  if (state === 'REFUND') return 'unchanged'; // refunds arrive through their own resource
  await tx.update(orders).set({ tradeState: state, updatedAt: sql`now()` }).where(eq(orders.id, order.id));
  await orderChanged(tx, order, state);
  return 'applied';
}

/** Applies a refund resource (REFUND.* notification, refund answer or query) inside `tx`. */
export async function applyRefund(tx: Executor, settings: Pick<MerchantSettings, 'mchid'>, resource: RefundResource): Promise<Outcome> {
  if (resource.mchid !== undefined && resource.mchid !== settings.mchid) throw new NotificationRefused(400, 'mchid does not match');
  const order = await findOrderRow(tx, resource.out_trade_no, true);
  if (!order) throw new NotificationRefused(404, 'unknown out_trade_no');
  const [refund] = await tx.select().from(refunds).where(and(eq(refunds.outRefundNo, resource.out_refund_no), eq(refunds.orderId, order.id)));
  if (!refund) throw new NotificationRefused(404, 'unknown out_refund_no');
  if (resource.amount.refund !== refund.amountFen || resource.amount.total !== order.amountFen) throw new NotificationRefused(400, 'amount does not match');
  if (resource.transaction_id !== undefined && resource.transaction_id !== order.transactionId) throw new NotificationRefused(400, 'transaction_id does not match');
  const status = resource.refund_status ?? resource.status;
  if (!status || !['PROCESSING', 'SUCCESS', 'CLOSED', 'ABNORMAL'].includes(status)) throw new NotificationRefused(400, 'unknown refund status');
  if (refund.status === status || refund.status === 'SUCCESS' || refund.status === 'CLOSED') {
    if (!refund.refundId) await tx.update(refunds).set({ refundId: resource.refund_id }).where(eq(refunds.id, refund.id));
    return 'unchanged';
  }
  await tx.update(refunds).set({
    status, refundId: resource.refund_id, ...(status === 'SUCCESS' ? { successTime: resource.success_time ? new Date(resource.success_time) : new Date() } : {}),
  }).where(eq(refunds.id, refund.id));
  if (status !== 'SUCCESS') return 'applied';
  const refundedFen = order.refundedFen + refund.amountFen;
  const takeBack = refundedFen >= order.amountFen && order.serviceApplied;
  await tx.update(orders).set({ tradeState: 'REFUND', refundedFen, updatedAt: sql`now()`, ...(takeBack ? { serviceApplied: false } : {}) })
    .where(eq(orders.id, order.id));
  await orderChanged(tx, order, 'REFUND');
  if (takeBack) await revokeService(tx, order.tenantId, order.lockIds, order.months);
  await providerAudit(tx, order, 'wxpay-refunded', { outTradeNo: order.outTradeNo, amountFen: refund.amountFen });
  return 'applied';
}
