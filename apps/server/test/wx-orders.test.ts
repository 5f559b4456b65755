/**
 * Orders and WeChat Pay: create (amount from the package), pay through the sandbox's real
 * HTTP notification, close, refund with its notification, reconciliation of a lost notification and
 * of an expired order, closing an order WeChat Pay reports paid (ORDERPAID) or does not know
 * (ORDER_NOT_EXIST), tenant isolation.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTradeNo } from '../src/modules/billing/orders.js';
import { reconcileOnce } from '../src/modules/billing/reconcile.js';
import { call, dataOf, skipSuite } from './helper.js';
import { buy, createPayContext, orderOf, type PayContext, serviceEnd, waitForState } from './wx-support.js';

const MONTH_MS = 28 * 86_400_000;

describe.skipIf(skipSuite)('orders and WeChat Pay', () => {
  let ctx: PayContext;
  beforeAll(async () => { ctx = await createPayContext(); });
  afterAll(() => ctx?.close());

  it('lists the packages and creates an order whose amount comes from the package, with a code_url', async () => {
    const products = dataOf(await call(ctx.app, ctx.token, { method: 'GET', url: '/iot/v1/wx/product/list' }));
    const yearly = products.find((p: { id: number }) => p.id === 1);
    expect(yearly).toMatchObject({ priceFen: 9900, lockCount: 1, months: 12 });
    const order = await buy(ctx);
    expect(order).toMatchObject({ amountFen: 9900, tradeState: 'NOTPAY', lockIds: [1], months: 12, refundedFen: 0 });
    expect(order.outTradeNo).toMatch(/^IOT\d{14}[0-9a-f]{10}$/);
    // The sandbox's pay page is on the platform's own origin, served by the app itself.
    expect(order.codeUrl).toMatch(/^\/wxpay-sandbox\/pay\?id=wx/);
    const payPage = await ctx.app.inject({ method: 'GET', url: order.codeUrl });
    expect([payPage.statusCode, payPage.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(payPage.body).toContain('¥ 99.00');
    expect((await ctx.app.inject({ method: 'GET', url: '/wxpay-sandbox/pay?id=unknown' })).statusCode).toBe(404);
    // The browser cannot name an amount, cover more locks than the package allows, or another tenant's lock.
    const withAmount = await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/createOrder', payload: { productId: 1, lockIds: [1], amountFen: 1 } });
    expect(withAmount.statusCode).toBe(400);
    const tooMany = await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/createOrder', payload: { productId: 1, lockIds: [1, 2] } });
    expect([tooMany.statusCode, tooMany.json().errors[0].field]).toEqual([400, 'body.lockIds']);
    const [foreign] = (await ctx.database.system.execute(sql`select id from locks where tenant_id = 101 limit 1`) as unknown as { rows: { id: number }[] }).rows;
    const other = await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/createOrder', payload: { productId: 1, lockIds: [foreign?.id] } });
    expect(other.statusCode).toBe(400);
  });

  it('pays on the sandbox: the signed notification arrives over HTTP, the order is SUCCESS and the lock\'s service moves by 12 months', async () => {
    const before = Date.now();
    const order = await buy(ctx, [2]);
    expect(ctx.sandbox.pay(order.outTradeNo)).toBe(true);
    await waitForState(ctx, order.outTradeNo, 'SUCCESS');
    const paid = await orderOf(ctx, order.outTradeNo);
    expect(paid.transactionId).toMatch(/^4200/);
    expect(paid.codeUrl).toBeNull();
    expect(await serviceEnd(ctx, 2)).toBeGreaterThan(before + 12 * MONTH_MS);
    const locks = dataOf(await call(ctx.app, ctx.token, { method: 'GET', url: '/iot/v1/lockDevice/list' }));
    expect(locks.records.find((l: { id: number }) => l.id === 2).serviceEndAt).not.toBeNull();
  });

  it('closes an unpaid order (CLOSED, no longer payable) and refuses to close a paid one', async () => {
    const order = await buy(ctx, [3]);
    const closed = dataOf(await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/orderInfo/close', payload: { outTradeNo: order.outTradeNo } }));
    expect(closed).toMatchObject({ tradeState: 'CLOSED', codeUrl: null });
    expect(ctx.sandbox.pay(order.outTradeNo)).toBe(false);
    const again = await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/orderInfo/close', payload: { outTradeNo: order.outTradeNo } });
    expect(again.statusCode).toBe(409);
  });

  it('refunds part, then the rest: refund notifications settle each, REFUND, and the full refund takes the months back', async () => {
    const start = await serviceEnd(ctx, 3);
    const order = await buy(ctx, [3]);
    ctx.sandbox.pay(order.outTradeNo);
    await waitForState(ctx, order.outTradeNo, 'SUCCESS');
    const extended = await serviceEnd(ctx, 3);
    const refund = (amountFen: number) => call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/orderInfo/refund', payload: { outTradeNo: order.outTradeNo, amountFen, reason: '客户要求' } });
    const partial = dataOf(await refund(4000));
    expect(partial.refunds).toHaveLength(1);
    expect(partial.refunds[0]).toMatchObject({ amountFen: 4000, reason: '客户要求' });
    expect((await refund(6000)).statusCode).toBe(400); // 4,000 processing or refunded, 5,900 left
    await expect.poll(async () => (await orderOf(ctx, order.outTradeNo)).refundedFen, { timeout: 10_000 }).toBe(4000);
    const afterPartial = await orderOf(ctx, order.outTradeNo);
    expect(afterPartial).toMatchObject({ tradeState: 'REFUND', refunds: [{ status: 'SUCCESS' }] });
    expect(await serviceEnd(ctx, 3)).toBe(extended);
    dataOf(await refund(5900));
    await expect.poll(async () => (await orderOf(ctx, order.outTradeNo)).refundedFen, { timeout: 10_000 }).toBe(9900);
    const end = await serviceEnd(ctx, 3);
    expect(Math.abs((end ?? 0) - Math.max(start ?? 0, Date.now()))).toBeLessThan(5 * 86_400_000);
    expect((await refund(1)).statusCode).toBe(400);
  });

  it('reconciles a lost notification, and closes an order past its expiry', async () => {
    ctx.sandbox.behaviour.drop = true;
    try {
      const order = await buy(ctx, [1]);
      ctx.sandbox.pay(order.outTradeNo);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('NOTPAY');
      const stale = await buy(ctx, [1]);
      await ctx.database.system.execute(sql`update orders set reconcile_after = now() - interval '1 second' where out_trade_no in (${order.outTradeNo}, ${stale.outTradeNo})`);
      await ctx.database.system.execute(sql`update orders set expires_at = now() - interval '1 second' where out_trade_no = ${stale.outTradeNo}`);
      const payments = ctx.app.payments;
      if (!payments) throw new Error('no payments');
      expect(await reconcileOnce(ctx.database, payments)).toBe(2);
      expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('SUCCESS');
      expect((await orderOf(ctx, stale.outTradeNo)).tradeState).toBe('CLOSED');
      expect(await reconcileOnce(ctx.database, payments)).toBe(0); // claimed rows wait RECHECK_S; settled ones are done
    } finally {
      ctx.sandbox.behaviour.drop = false;
    }
  });

  it('refuses to close an order WeChat Pay reports paid before its notification, and closes an expired one it never knew', async () => {
    const payments = ctx.app.payments;
    if (!payments) throw new Error('no payments');
    ctx.sandbox.behaviour.drop = true;
    try {
      const order = await buy(ctx, [2]);
      expect(ctx.sandbox.pay(order.outTradeNo)).toBe(true);
      const close = await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/orderInfo/close', payload: { outTradeNo: order.outTradeNo } });
      expect([close.statusCode, close.json().errors?.[0]?.field]).toEqual([409, 'body.outTradeNo']);
      expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('NOTPAY');
      const unknown = newTradeNo('IOT');
      await ctx.database.system.execute(sql`insert into orders (tenant_id, out_trade_no, product_id, description, amount_fen, lock_ids, months, expires_at, created_by)
        values (100, ${unknown}, 1, 'never at WeChat Pay', 9900, '{1}', 12, now() - interval '1 second', 'test')`);
      await ctx.database.system.execute(sql`update orders set reconcile_after = now() - interval '1 second' where out_trade_no in (${order.outTradeNo}, ${unknown})`);
      await reconcileOnce(ctx.database, payments);
      expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('SUCCESS');
      expect((await orderOf(ctx, unknown)).tradeState).toBe('CLOSED');
    } finally {
      ctx.sandbox.behaviour.drop = false;
    }
  });

  it('keeps tenants apart: another tenant\'s order is not found and not listed', async () => {
    const order = await buy(ctx, [1]);
    const other = await call(ctx.app, ctx.token, { method: 'GET', url: `/iot/v1/wx/orderInfo?outTradeNo=${order.outTradeNo}`, tenantId: 101 });
    expect(other.statusCode).toBe(404);
    const list = dataOf(await call(ctx.app, ctx.token, { method: 'GET', url: '/iot/v1/wx/orderInfo/list', tenantId: 101 }));
    expect(list.total).toBe(0);
    const ours = dataOf(await call(ctx.app, ctx.token, { method: 'GET', url: '/iot/v1/wx/orderInfo/list?tradeState=SUCCESS' }));
    expect(ours.records.every((o: { tradeState: string }) => o.tradeState === 'SUCCESS')).toBe(true);
    const csv = await call(ctx.app, ctx.token, { method: 'GET', url: '/iot/v1/wx/orderInfo/export?format=csv' });
    expect([csv.statusCode, csv.body.split('\n')[0]]).toEqual([200, expect.stringContaining('商户订单号')]);
  });
});
