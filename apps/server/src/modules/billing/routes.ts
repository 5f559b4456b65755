/**
 * 套餐 and 订单管理 routes: packages, buying, the order a buyer follows, the order list
 * and its export, close and refund; plus the service-period summary. The payment provider is set up
 * here (payments.ts: WeChat Pay, the one adapter of provider.ts); its notifications are wechatPay/notify-routes.ts.
 */
import { LOG_EXPORT_MAX, type OrderRecord, orderStateText, REFUND_STATUS_LABELS, billingEndpoints, localized as t } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../http/api-error.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { type ExportColumn, sendExport } from '../../http/export.js';
import { serviceSummary } from '../lockDevice/service-period.js';
import { settleRefundAnswer } from './reconcile.js';
import { notifyRoutes } from './wechatPay/notify-routes.js';
import { paymentsOf, setUpPayments } from './payments.js';
import { exportOrders, findOrderRow, listOrders, listProducts, orderRecordOf, saveProduct } from './repo.js';
import { closeOrder, createOrder, refundOrder } from './orders.js';
import { timeZoneOf } from '../tenant/settings.js';

const ORDER_COLUMNS: ExportColumn<OrderRecord>[] = [
  { header: t('商户订单号', 'Out trade no.'), value: (o) => o.outTradeNo, width: 30 },
  { header: t('套餐', 'Package'), value: (o) => o.description, width: 20 },
  { header: t('金额（分）', 'Amount (fen)'), value: (o) => o.amountFen },
  { header: t('已退款（分）', 'Refunded (fen)'), value: (o) => o.refundedFen },
  { header: t('状态', 'State'), value: (o, language) => orderStateText(o, language) },
  { header: t('门锁数', 'Locks'), value: (o) => o.lockIds.length },
  { header: t('月数', 'Months'), value: (o) => o.months },
  { header: t('微信支付订单号', 'Transaction id'), value: (o) => o.transactionId, width: 32 },
  { header: t('创建时间', 'Created'), value: (o) => o.createdAt, time: true, width: 22 },
  { header: t('支付时间', 'Paid'), value: (o) => o.successTime, time: true, width: 22 },
  { header: t('最近退款状态', 'Last refund'), value: (o) => o.refunds.at(-1)?.status ?? null, labels: REFUND_STATUS_LABELS },
  { header: t('创建人', 'Created by'), value: (o) => o.createdBy },
];

async function routes(app: FastifyInstance): Promise<void> {
  await setUpPayments(app);
  await app.register(notifyRoutes);
  if (app.payments?.sandbox) await app.register((await import('../../demo/wxPaySandbox/routes.js')).sandboxPageRoutes);

  registerEndpoint(app, billingEndpoints.productList, ({ inTenant }) => inTenant((tx) => listProducts(tx), { read: true }));
  registerEndpoint(app, billingEndpoints.productSave, async ({ body, inTenant }) => {
    const saved = await inTenant((tx) => saveProduct(tx, body));
    if (!saved) throw new ApiError('NOT_FOUND');
    return saved;
  });

  registerEndpoint(app, billingEndpoints.createOrder, ({ body, inTenant, tenantId, principal }) =>
    createOrder(paymentsOf(app), inTenant, { tenantId, productId: body.productId, lockIds: body.lockIds, createdBy: principal.username, ttlS: app.config.WXPAY_ORDER_TTL_S }));

  registerEndpoint(app, billingEndpoints.orderInfo, ({ query, inTenant }) => inTenant(async (tx) => {
    const row = await findOrderRow(tx, query.outTradeNo);
    if (!row) throw new ApiError('NOT_FOUND');
    return orderRecordOf(tx, row);
  }, { read: true }));

  registerEndpoint(app, billingEndpoints.orderList, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listOrders(tx, filter, current, size), { read: true });
  });
  registerEndpoint(app, billingEndpoints.orderExport, async ({ query, inTenant, request, reply }) => {
    const { format, timeZone, ...filter } = query;
    const rows = await inTenant((tx) => exportOrders(tx, filter, LOG_EXPORT_MAX), { read: true });
    return sendExport({ request, reply, format, timeZone: timeZone ?? await timeZoneOf(app.database.system, request.tenantId), name: 'orders', columns: ORDER_COLUMNS, rows });
  }, { raw: true });

  registerEndpoint(app, billingEndpoints.closeOrder, ({ body, inTenant }) => closeOrder(paymentsOf(app), inTenant, body.outTradeNo));

  registerEndpoint(app, billingEndpoints.refund, async ({ body, inTenant, tenantId, principal }) => {
    const payments = paymentsOf(app);
    const { outRefundNo, answer } = await refundOrder(payments, inTenant, { ...body, tenantId, createdBy: principal.username });
    await settleRefundAnswer(app.database, payments, body.outTradeNo, outRefundNo, answer);
    if (answer === 'refused') throw new ApiError('PAYMENT_UNAVAILABLE');
    return inTenant(async (tx) => orderRecordOf(tx, (await findOrderRow(tx, body.outTradeNo)) as NonNullable<Awaited<ReturnType<typeof findOrderRow>>>), { read: true });
  });

  registerEndpoint(app, billingEndpoints.serviceSummary, ({ inTenant }) => inTenant((tx) => serviceSummary(tx), { read: true }));
}

/** Registered with fastify-plugin: `app.payments` is visible to main.ts (reconciliation). */
export const billingRoutes = fp(routes, { name: 'billing' });
