/**
 * 套餐 and 订单管理 (spec §7 "Products and orders"): packages of platform service bought with
 * WeChat Pay Native (API v3). Money is in fen (1 CNY = 100 fen), integers only. An order's amount is
 * fixed by the server from its package; the browser only names the package and the locks it covers.
 * Order states are WeChat Pay's `trade_state`; refund states its refund `status`.
 */
import { z } from 'zod';
import { exportFields, exportResponse } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { isoTime } from './time.js';
import { int4Id, keyword, text } from './input.js';
import { localized as label } from '../i18n.js';
import { outTradeNo, REFUND_STATUSES, TRADE_STATES } from './wechatPay.js';

/** Days before the service end date at which the console warns. */
export const SERVICE_WARNING_DAYS = [30, 7, 1] as const;
/** Most locks one order covers. */
export const ORDER_LOCKS_MAX = 500;

/**
 * The payment provider's notification routes (public, raw JSON bodies signed by WeChat Pay; answered
 * 204 after commit or `{"code":"FAIL","message":...}` with 4xx/5xx). Not envelope endpoints: they
 * speak WeChat Pay's protocol, not the console's.
 */

export const productRecord = z.object({
  id: z.number().int(),
  nameZh: z.string(),
  nameEn: z.string(),
  descriptionZh: z.string(),
  descriptionEn: z.string(),
  /** Price in fen. */
  priceFen: z.number().int(),
  /** Locks one purchase covers (at most). */
  lockCount: z.number().int(),
  /** Months of service each covered lock gets. */
  months: z.number().int(),
  /** Only enabled packages can be bought. */
  enabled: z.boolean(),
});
export type ProductRecord = z.infer<typeof productRecord>;

export const productSaveBody = z.strictObject({
  /** Absent: a new package. */
  id: int4Id.optional(),
  nameZh: text().trim().min(1).max(64),
  nameEn: text().trim().min(1).max(64),
  descriptionZh: text().trim().max(500).default(''),
  descriptionEn: text().trim().max(500).default(''),
  priceFen: z.number().int().min(1).max(100_000_000),
  lockCount: z.number().int().min(1).max(ORDER_LOCKS_MAX),
  months: z.number().int().min(1).max(120),
  enabled: z.boolean().default(true),
});

export const refundRecord = z.object({
  id: z.number().int(),
  outRefundNo: z.string(),
  /** WeChat Pay's refund id, once it accepted the refund. */
  refundId: z.string().nullable(),
  amountFen: z.number().int(),
  reason: z.string(),
  status: z.enum(REFUND_STATUSES),
  createdBy: z.string(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
  successTime: z.string().nullable(),
});
export type RefundRecord = z.infer<typeof refundRecord>;

export const orderRecord = z.object({
  id: z.number().int(),
  outTradeNo: z.string(),
  productId: z.number().int(),
  /** What the payer sees (the package's Chinese name). */
  description: z.string(),
  amountFen: z.number().int(),
  /** Sum of successful refunds, fen. */
  refundedFen: z.number().int(),
  tradeState: z.enum(TRADE_STATES),
  /** Locks the order extends, and by how many months each. */
  lockIds: z.array(z.number().int()),
  months: z.number().int(),
  /** The Native payment link to show as a QR code while the order is open. */
  codeUrl: z.string().nullable(),
  /** ISO 8601 UTC: the QR code's expiry, creation, payment. */
  expiresAt: z.string(),
  createdAt: z.string(),
  successTime: z.string().nullable(),
  transactionId: z.string().nullable(),
  createdBy: z.string(),
  refunds: z.array(refundRecord),
});
export type OrderRecord = z.infer<typeof orderRecord>;

const orderFilterFields = {
  tradeState: z.enum(TRADE_STATES).optional(),
  /** Matches out_trade_no or transaction id (substring). */
  keyword: keyword().optional(),
  /** Orders created at or after / before (ISO 8601 with offset). */
  startTime: isoTime.optional(),
  endTime: isoTime.optional(),
};
export const orderListQuery = pageQuery.extend(orderFilterFields);
export const orderExportQuery = z.object({ ...orderFilterFields, ...exportFields });

export const createOrderBody = z.strictObject({
  productId: int4Id,
  /** The tenant's locks the package covers (at most its lockCount). */
  lockIds: z.array(int4Id).min(1).max(ORDER_LOCKS_MAX),
});
export const orderRefBody = z.strictObject({ outTradeNo });
export const refundBody = z.strictObject({
  outTradeNo,
  /** Fen; at most what is paid and not yet refunded or being refunded. */
  amountFen: z.number().int().min(1).max(100_000_000),
  reason: text().trim().min(1).max(80),
});

/** A lock whose service ends within the longest warning period (or has ended). */
export const serviceLockRecord = z.object({
  id: z.number().int(), imei: z.string(), name: z.string(),
  /** ISO 8601 UTC. */
  serviceEndAt: z.string(),
});
export const serviceSummaryResponse = z.object({
  expired: z.number().int(),
  /** Counts of locks whose service ends within 1, 7 and 30 days (not yet ended). */
  within1: z.number().int(),
  within7: z.number().int(),
  within30: z.number().int(),
  /** The soonest to end first, at most 50. */
  locks: z.array(serviceLockRecord),
});
export type ServiceSummary = z.infer<typeof serviceSummaryResponse>;

export const billingEndpoints = {
  /** Packages; every holder of RENEW or ORDER_MANAGEMENT may read them. */
  productList: endpoint({
    method: 'GET', path: '/iot/v1/wx/product/list', access: ['RENEW', 'ORDER_MANAGEMENT'], kind: 'token', response: z.array(productRecord),
  }),
  /** Creates or updates a package: packages are shared by every data centre, so platform administrators only (scope platform). */
  productSave: endpoint({
    method: 'POST', path: '/iot/v1/wx/product/save', access: 'RENEW_PRODUCT_MANAGE', scope: 'platform', kind: 'token',
    action: { label: label('保存套餐', 'Save package'), target: ['id', 'nameZh'], entity: 'product' }, body: productSaveBody, response: productRecord,
  }),
  /** Creates an order and its WeChat Pay Native prepayment; answers the order with its code_url. */
  createOrder: endpoint({
    method: 'POST', path: '/iot/v1/wx/createOrder', access: 'RENEW', kind: 'token', idempotent: true,
    action: { label: label('创建订单', 'Create order'), target: ['productId'] }, body: createOrderBody, response: orderRecord,
  }),
  /** One order of the tenant (the buying page follows its state). */
  orderInfo: endpoint({
    method: 'GET', path: '/iot/v1/wx/orderInfo', access: ['RENEW', 'ORDER_MANAGEMENT'], kind: 'token',
    query: z.object({ outTradeNo }), response: orderRecord,
  }),
  orderList: endpoint({
    method: 'GET', path: '/iot/v1/wx/orderInfo/list', access: 'ORDER_MANAGEMENT', kind: 'token',
    query: orderListQuery, response: pageOf(orderRecord),
  }),
  orderExport: endpoint({
    method: 'GET', path: '/iot/v1/wx/orderInfo/export', access: 'ORDER_MANAGEMENT', kind: 'token',
    query: orderExportQuery, response: exportResponse,
  }),
  /** Closes an unpaid order at WeChat Pay and here (409 CONFLICT once paid). */
  closeOrder: endpoint({
    method: 'POST', path: '/iot/v1/wx/orderInfo/close', access: 'ORDER_MANAGEMENT', kind: 'token',
    action: { label: label('关闭订单', 'Close order'), target: ['outTradeNo'] }, body: orderRefBody, response: orderRecord,
  }),
  /** Refunds all or part of a paid order; the refund's state follows WeChat Pay's notification. */
  refund: endpoint({
    method: 'POST', path: '/iot/v1/wx/orderInfo/refund', access: 'ORDER_MANAGEMENT', kind: 'token', idempotent: true,
    action: { label: label('订单退款', 'Refund order'), target: ['outTradeNo'] }, body: refundBody, response: orderRecord, stepUp: true,
  }),
  /** Locks whose service ends soon or has ended (warnings at 30, 7 and 1 days). */
  serviceSummary: endpoint({
    method: 'GET', path: '/iot/v1/wx/serviceSummary', access: ['RENEW', 'LOOK_INFO'], kind: 'token', response: serviceSummaryResponse,
  }),
};
