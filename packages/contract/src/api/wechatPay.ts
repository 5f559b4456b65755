/**
 * WeChat Pay Native (API v3) as the platform speaks it: its trade states and refund statuses with their
 * labels in both languages, the out_trade_no rule, the demo sandbox's pay page, and the payment
 * provider's notification routes. The packages and orders built on them are billing.ts's.
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { localized as label } from '../i18n.js';

/** WeChat Pay `trade_state` values. */
export const TRADE_STATES = ['NOTPAY', 'USERPAYING', 'SUCCESS', 'REFUND', 'CLOSED', 'REVOKED', 'PAYERROR'] as const;
export type TradeState = (typeof TRADE_STATES)[number];
/** States in which an order may still be paid (reconciliation asks WeChat Pay about these). */
export const OPEN_TRADE_STATES = ['NOTPAY', 'USERPAYING'] as const satisfies readonly TradeState[];
/** WeChat Pay refund `status` values. */
export const REFUND_STATUSES = ['PROCESSING', 'SUCCESS', 'CLOSED', 'ABNORMAL'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * The demo's sandbox pay page (what the payer's phone shows after scanning), served by the platform
 * itself under this path (`?id=<prepay id>`, GET shows it, POST confirms), so its link works wherever the
 * console does (it was on localhost:<random port>). The sandbox's code_url is this path.
 */
export const WXPAY_SANDBOX_PAY_PATH = '/wxpay-sandbox/pay';

/** Where WeChat Pay posts its payment and refund notifications (wechatPayNotifyEndpoints). */
export const WXPAY_NOTIFY_PATHS = {
  payment: '/iot/v1/wx/wxPay/native/notify',
  refund: '/iot/v1/wx/wxPay/native/refundNotify',
} as const;

/** An out_trade_no: 6-32 letters, digits, `_`, `-` (WeChat Pay's rule). */
export const outTradeNo = z.string().regex(/^[A-Za-z0-9_-]{6,32}$/);

/**
 * The notification routes, for the route table and the API reference: public, authenticated by WeChat
 * Pay's signature (Wechatpay-* headers) over the raw body; they answer in WeChat Pay's protocol (204,
 * or `{"code":"FAIL","message":...}`), not in the console's envelope. No body schema here: the body is
 * WeChat Pay's (it may grow fields), verified byte for byte and parsed by the server after the signature.
 */
export const wechatPayNotifyEndpoints = {
  payment: endpoint({ method: 'POST', path: WXPAY_NOTIFY_PATHS.payment, access: 'public', kind: 'tokenless', response: z.null() }),
  refund: endpoint({ method: 'POST', path: WXPAY_NOTIFY_PATHS.refund, access: 'public', kind: 'tokenless', response: z.null() }),
};

/** Labels of trade states and refund statuses in both languages (console and exports). */
export const TRADE_STATE_LABELS: Record<TradeState, { 'zh-CN': string; 'en-US': string }> = {
  NOTPAY: label('未支付', 'Not paid'), USERPAYING: label('用户支付中', 'Paying'), SUCCESS: label('支付成功', 'Paid'),
  REFUND: label('已退款', 'Refunded'), CLOSED: label('已关闭', 'Closed'), REVOKED: label('已撤销', 'Revoked'), PAYERROR: label('支付失败', 'Payment failed'),
};
/**
 * An order's state as people read it: WeChat Pay's REFUND ("转入退款") covers a partial
 * refund too, so an order refunded in part says 部分退款 and one refunded in full 已退款.
 */
export function orderStateText(order: { tradeState: TradeState; amountFen: number; refundedFen: number }, language: 'zh-CN' | 'en-US'): string {
  if (order.tradeState === 'REFUND' && order.refundedFen < order.amountFen) return label('部分退款', 'Partly refunded')[language];
  return TRADE_STATE_LABELS[order.tradeState][language];
}
export const REFUND_STATUS_LABELS: Record<RefundStatus, { 'zh-CN': string; 'en-US': string }> = {
  PROCESSING: label('退款处理中', 'Processing'), SUCCESS: label('退款成功', 'Refunded'), CLOSED: label('退款关闭', 'Closed'), ABNORMAL: label('退款异常', 'Abnormal'),
};
