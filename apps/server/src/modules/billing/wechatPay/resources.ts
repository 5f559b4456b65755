/**
 * The decrypted resources of WeChat Pay notifications, checked field by field before anything
 * is applied: every field a state change relies on must be present and well-formed (a genuine signature
 * over a resource without `transaction_id` is still refused). Field names as WeChat Pay API v3's
 * 支付通知 / 退款结果通知. paymentFrom and refundFrom check any resource (notification or answer) against
 * the merchant and map it to billing's terms; billing/apply.ts then compares it with the order.
 */
import { outTradeNo } from '@iot/contract';
import { z } from 'zod';
import { PaymentReportRefused, type ProviderPayment, type ProviderRefund } from '../provider.js';
import type { RefundResource, TransactionResource } from './client.js';
import type { MerchantSettings } from './settings.js';

const id = z.string().min(1).max(64);
const fen = z.number().int().min(0).max(100_000_000);
/** RFC 3339 time as WeChat Pay writes it (e.g. 2026-11-22T10:00:00+08:00). */
const rfc3339 = z.string().max(64).refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), 'RFC 3339 time');

/** TRANSACTION.SUCCESS: a paid Native transaction. */
export const paidTransactionResource = z.object({
  appid: id,
  mchid: id,
  out_trade_no: outTradeNo,
  transaction_id: z.string().min(1).max(32),
  trade_state: z.literal('SUCCESS'),
  success_time: rfc3339,
  amount: z.object({ total: fen.min(1), currency: z.string().min(1).max(16), payer_total: fen.optional(), payer_currency: z.string().max(16).optional() }),
});

/** REFUND.SUCCESS / REFUND.ABNORMAL / REFUND.CLOSED: a refund's outcome (`refund_status` as the event says). */
export const refundNotificationResource = z.object({
  mchid: id,
  out_trade_no: outTradeNo,
  transaction_id: z.string().min(1).max(32),
  out_refund_no: outTradeNo,
  refund_id: z.string().min(1).max(32),
  refund_status: z.enum(['SUCCESS', 'CLOSED', 'ABNORMAL']),
  success_time: rfc3339.optional(),
  amount: z.object({ total: fen.min(1), refund: fen.min(1), payer_total: fen.optional(), payer_refund: fen.optional() }),
}).refine((resource) => resource.refund_status !== 'SUCCESS' || resource.success_time !== undefined, { message: 'success_time missing', path: ['success_time'] });

/** The event types each route accepts. */
export const NOTIFICATION_EVENTS = {
  payment: ['TRANSACTION.SUCCESS'],
  refund: ['REFUND.SUCCESS', 'REFUND.ABNORMAL', 'REFUND.CLOSED'],
} as const;

const timeOf = (value: string | undefined) => (value ? new Date(value) : undefined);

/** The payment of a transaction resource of this merchant (mchid and appid); PaymentReportRefused (400) otherwise. */
export function paymentFrom(resource: TransactionResource, settings: Pick<MerchantSettings, 'mchid' | 'appid'>): ProviderPayment {
  if (resource.mchid !== settings.mchid) throw new PaymentReportRefused(400, 'mchid does not match');
  if (resource.appid !== settings.appid) throw new PaymentReportRefused(400, 'appid does not match');
  return {
    outTradeNo: resource.out_trade_no, tradeState: resource.trade_state, transactionId: resource.transaction_id,
    paidAt: timeOf(resource.success_time), amountFen: resource.amount?.total, currency: resource.amount?.currency,
  };
}

/** The refund of a refund resource of this merchant (mchid when it names one); PaymentReportRefused (400) otherwise. */
export function refundFrom(resource: RefundResource, settings: Pick<MerchantSettings, 'mchid'>): ProviderRefund {
  if (resource.mchid !== undefined && resource.mchid !== settings.mchid) throw new PaymentReportRefused(400, 'mchid does not match');
  return {
    outTradeNo: resource.out_trade_no, outRefundNo: resource.out_refund_no, refundId: resource.refund_id, transactionId: resource.transaction_id,
    status: resource.refund_status ?? resource.status, refundedAt: timeOf(resource.success_time),
    refundFen: resource.amount.refund, totalFen: resource.amount.total,
  };
}
