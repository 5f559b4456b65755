/**
 * What billing asks of a payment provider, in the platform's terms: WeChat Pay is the one adapter
 * (wechatPay/; the pattern of cal.com's app-store payment apps, each provider one folder behind one
 * interface). Amounts in fen of CNY, times as Date. An adapter checks that what its provider reports
 * belongs to this merchant before mapping it (otherwise PaymentReportRefused), and turns the provider's
 * failures into PaymentProviderError, which never carries the request (keys) or the answer's body.
 */

/** A refusal or failure of the provider; `status` 0 when it could not be reached or its answer was not genuine. */
export class PaymentProviderError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(`${code}: ${message}`);
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
  queryOrder(outTradeNo: string): Promise<ProviderPayment>;
  closeOrder(outTradeNo: string): Promise<void>;
  refund(input: { outTradeNo: string; outRefundNo: string; amountFen: number; totalFen: number; reason: string; notifyUrl: string }): Promise<ProviderRefund>;
  queryRefund(outRefundNo: string): Promise<ProviderRefund>;
}
