/**
 * What billing asks of a payment provider, in the platform's terms: WeChat Pay is the one adapter
 * (wechatPay/; the pattern of cal.com's app-store payment apps, each provider one folder behind one
 * interface). Amounts in fen of CNY, times as Date. An adapter checks that what its provider reports
 * belongs to this merchant before mapping it (otherwise PaymentReportRefused), and turns the provider's
 * failures into PaymentProviderError, which never carries the request (keys) or the answer's body.
 * The provider's own error codes stay inside its adapter: billing sees outcomes (an order the provider
 * does not know, one already paid, a refused or an unanswered call), never a code to compare.
 */

/**
 * How a provider call failed: `refused` when the provider answered and declined it (nothing happened
 * there, e.g. a refund over the amount left); `unavailable` when there was no genuine answer (not
 * reached, a server error, an unverifiable or malformed answer), so the outcome is unknown.
 */
export type ProviderFailure = 'refused' | 'unavailable';

/** A failed provider call; `providerCode` and the message are the provider's, for logs only. */
export class PaymentProviderError extends Error {
  constructor(readonly failure: ProviderFailure, readonly providerCode: string, message: string) {
    super(`${providerCode}: ${message}`);
    this.name = 'PaymentProviderError';
  }
}

/**
 * A provider's report (a notification, or an answer used by reconciliation) that is refused: not
 * genuine, not this merchant's, or not matching the order. `status` is the HTTP status a notification
 * gets; the message is fit for logs (no header values, no body, no key).
 */
export class PaymentReportRefused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'PaymentReportRefused';
  }
}

/** A payment as the provider reports it. */
export interface ProviderPayment {
  outTradeNo: string;
  /** The provider's trade state (contract TRADE_STATES; billing/apply.ts refuses any other). */
  tradeState: string;
  /** The provider's number of the paid transaction. */
  transactionId?: string;
  paidAt?: Date;
  /** The amount the payment is for, fen; undefined when the provider did not say. */
  amountFen?: number;
  currency?: string;
}

/** A refund as the provider reports it. */
export interface ProviderRefund {
  outTradeNo: string;
  outRefundNo: string;
  /** The provider's number of the refund. */
  refundId: string;
  transactionId?: string;
  /** PROCESSING, SUCCESS, CLOSED or ABNORMAL; undefined when the provider did not say. */
  status?: string;
  refundedAt?: Date;
  /** The refund's amount and the order's, fen. */
  refundFen: number;
  totalFen: number;
}

/** The calls billing makes. */
export interface PaymentProvider {
  /** The provider's name in the system log (the username of the rows it causes). */
  readonly auditName: string;
  /** A Native (QR code) payment; returns the code_url to show. */
  createNative(input: { outTradeNo: string; description: string; amountFen: number; expiresAt: Date; notifyUrl: string }): Promise<string>;
  /** The payment, or undefined when the provider has none under this number. */
  queryOrder(outTradeNo: string): Promise<ProviderPayment | undefined>;
  /** Closes an unpaid payment: `alreadyPaid` when the provider refuses because it was paid meanwhile. */
  closeOrder(outTradeNo: string): Promise<'closed' | 'alreadyPaid'>;
  refund(input: { outTradeNo: string; outRefundNo: string; amountFen: number; totalFen: number; reason: string; notifyUrl: string }): Promise<ProviderRefund>;
  queryRefund(outRefundNo: string): Promise<ProviderRefund>;
}
