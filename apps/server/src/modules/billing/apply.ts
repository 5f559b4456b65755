/**
 * Applies what the payment provider reports about an order or a refund (notifications and
 * reconciliation), idempotently: each change runs in one transaction holding the order's row lock, so 20
 * identical notifications at once change the state once. A payment or refund that does not match the
 * order (out_trade_no, amount and currency, transaction_id) is refused (PaymentReportRefused) before
 * anything is written and changes nothing; the adapter has already refused another merchant's.
 * A payment extends the covered locks' service by the order's months; a full refund takes them back.
 */
import { TRADE_STATES, type TradeState } from '@iot/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { orders, refunds } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { insertAudit } from '../auditLog/repo.js';
import { extendService, revokeService } from '../lockDevice/service-period.js';
import { PaymentReportRefused, type ProviderPayment, type ProviderRefund } from './provider.js';
import { findOrderRow, type OrderRow } from './repo.js';

export type Outcome = 'applied' | 'unchanged';
const PAID: readonly string[] = ['SUCCESS', 'REFUND'];
/** The only currency orders are made in (the provider is asked for CNY). */
export const ORDER_CURRENCY = 'CNY';

/** The system-log row of a change the provider caused; `by`: its PaymentProvider auditName. */
const providerAudit = (db: Executor, by: string, order: OrderRow, action: string, detail: Record<string, unknown>) => insertAudit(db, {
  tenantId: order.tenantId, accountId: null, username: by, action, target: order.outTradeNo, result: 'success', clientIp: '', detail,
});

/** Emits `order.state` (docs/events.md) for `order` now in `tradeState`, with the transaction. */
export function orderChanged(tx: Executor, order: { id: number; tenantId: number }, tradeState: TradeState): Promise<void> {
  return emit(tx, 'order.state', { tenantId: order.tenantId, orderId: order.id, tradeState });
}

/** Applies a payment the provider reports (a notification or a query's answer) inside `tx`; `by`: the provider's auditName. */
export async function applyPayment(tx: Executor, by: string, payment: ProviderPayment): Promise<Outcome> {
  if (!(TRADE_STATES as readonly string[]).includes(payment.tradeState)) throw new PaymentReportRefused(400, 'unknown trade_state');
  const order = await findOrderRow(tx, payment.outTradeNo, true);
  if (!order) throw new PaymentReportRefused(404, 'unknown out_trade_no');
  const total = payment.amountFen;
  if (total !== undefined ? total !== order.amountFen : payment.tradeState === 'SUCCESS') throw new PaymentReportRefused(400, 'amount does not match');
  const state = payment.tradeState as TradeState;
  if (state === 'SUCCESS') {
    // Everything the payment relies on, before anything is applied (a replay of the recorded payment passes).
    if (!payment.transactionId) throw new PaymentReportRefused(400, 'transaction_id missing');
    if (payment.currency !== ORDER_CURRENCY) throw new PaymentReportRefused(400, 'currency does not match');
    if (order.transactionId && order.transactionId !== payment.transactionId) throw new PaymentReportRefused(400, 'transaction_id does not match');
  }
  if (PAID.includes(order.tradeState) || state === order.tradeState) return 'unchanged';
  if (state === 'SUCCESS' && payment.transactionId) {
    await tx.update(orders).set({
      tradeState: 'SUCCESS', transactionId: payment.transactionId, successTime: payment.paidAt ?? new Date(),
      serviceApplied: true, codeUrl: null, updatedAt: sql`now()`,
    }).where(eq(orders.id, order.id));
    await orderChanged(tx, order, 'SUCCESS');
    await extendService(tx, order.tenantId, order.lockIds, order.months);
    await providerAudit(tx, by, order, 'wxpay-paid', { outTradeNo: order.outTradeNo, amountFen: order.amountFen, lockIds: order.lockIds });
    return 'applied';
  }
  if (state === 'REFUND') return 'unchanged'; // refunds arrive through their own report
  await tx.update(orders).set({ tradeState: state, updatedAt: sql`now()` }).where(eq(orders.id, order.id));
  await orderChanged(tx, order, state);
  return 'applied';
}

/** Applies a refund the provider reports (a notification, the refund call's answer or a query's) inside `tx`; `by` as in applyPayment. */
export async function applyRefund(tx: Executor, by: string, report: ProviderRefund): Promise<Outcome> {
  const order = await findOrderRow(tx, report.outTradeNo, true);
  if (!order) throw new PaymentReportRefused(404, 'unknown out_trade_no');
  const [refund] = await tx.select().from(refunds).where(and(eq(refunds.outRefundNo, report.outRefundNo), eq(refunds.orderId, order.id)));
  if (!refund) throw new PaymentReportRefused(404, 'unknown out_refund_no');
  if (report.refundFen !== refund.amountFen || report.totalFen !== order.amountFen) throw new PaymentReportRefused(400, 'amount does not match');
  if (report.transactionId !== undefined && report.transactionId !== order.transactionId) throw new PaymentReportRefused(400, 'transaction_id does not match');
  const status = report.status;
  if (!status || !['PROCESSING', 'SUCCESS', 'CLOSED', 'ABNORMAL'].includes(status)) throw new PaymentReportRefused(400, 'unknown refund status');
  if (refund.status === status || refund.status === 'SUCCESS' || refund.status === 'CLOSED') {
    if (!refund.refundId) await tx.update(refunds).set({ refundId: report.refundId }).where(eq(refunds.id, refund.id));
    return 'unchanged';
  }
  await tx.update(refunds).set({
    status, refundId: report.refundId, ...(status === 'SUCCESS' ? { successTime: report.refundedAt ?? new Date() } : {}),
  }).where(eq(refunds.id, refund.id));
  if (status !== 'SUCCESS') return 'applied';
  const refundedFen = order.refundedFen + refund.amountFen;
  const takeBack = refundedFen >= order.amountFen && order.serviceApplied;
  await tx.update(orders).set({ tradeState: 'REFUND', refundedFen, updatedAt: sql`now()`, ...(takeBack ? { serviceApplied: false } : {}) })
    .where(eq(orders.id, order.id));
  await orderChanged(tx, order, 'REFUND');
  if (takeBack) await revokeService(tx, order.tenantId, order.lockIds, order.months);
  await providerAudit(tx, by, order, 'wxpay-refunded', { outTradeNo: order.outTradeNo, amountFen: refund.amountFen });
  return 'applied';
}
