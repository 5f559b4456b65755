/**
 * WeChat Pay notifications: a valid one applies once; a forged signature, an unknown
 * serial, a stale timestamp, a wrong amount, a wrong mchid change nothing and answer FAIL; a replay
 * and 20 concurrent duplicates change the state once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, skipSuite, tableChecksum } from './helper.js';
import { buy, createPayContext, deliver, notify, orderOf, paidResource, type PayContext, serviceEnd, strangerSigner } from './wx-support.js';

const TABLES = ['orders', 'refunds', 'locks', 'audit_log'];

describe.skipIf(skipSuite)('WeChat Pay payment notifications', () => {
  let ctx: PayContext;
  beforeAll(async () => {
    ctx = await createPayContext();
    ctx.sandbox.behaviour.drop = true; // only the notifications these tests send
  });
  afterAll(() => ctx?.close());

  async function expectRefused(prepared: ReturnType<typeof notify>, status: number, message: RegExp) {
    const before = await tableChecksum(ctx.database, TABLES);
    const response = await deliver(ctx, prepared);
    expect([response.statusCode, response.json()]).toEqual([status, { code: 'FAIL', message: expect.stringMatching(message) }]);
    expect(await tableChecksum(ctx.database, TABLES)).toBe(before);
  }

  it('refuses forged, unknown-serial, stale, wrong-amount, wrong-mchid and wrong-appid notifications without changing anything', async () => {
    const order = await buy(ctx, [1]);
    const valid = paidResource(ctx, order);
    await expectRefused(notify(ctx, valid, { tamper: (body) => body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ') }), 401, /signature/);
    await expectRefused(notify(ctx, valid, { signer: strangerSigner() }), 401, /Serial/);
    await expectRefused(notify(ctx, valid, { signer: { ...strangerSigner(), serial: ctx.sandbox.signer.serial } }), 401, /signature/);
    await expectRefused(notify(ctx, valid, { timestamp: Math.floor(Date.now() / 1000) - 301 }), 400, /window/);
    await expectRefused(notify(ctx, valid, { timestamp: Math.floor(Date.now() / 1000) + 301 }), 400, /window/);
    await expectRefused(notify(ctx, paidResource(ctx, order, { amount: { total: 1, payer_total: 1, currency: 'CNY' } })), 400, /amount/);
    await expectRefused(notify(ctx, paidResource(ctx, order, { mchid: '1900000000' })), 400, /mchid/);
    await expectRefused(notify(ctx, paidResource(ctx, order, { appid: 'wx0000000000000000' })), 400, /appid/);
    await expectRefused(notify(ctx, paidResource(ctx, order, { out_trade_no: 'IOT00000000000000nothere' })), 404, /out_trade_no/);
    await expectRefused(notify(ctx, valid, { kind: 'refundNotify', eventType: 'TRANSACTION.SUCCESS' }), 400, /event_type/);
    const { body, headers, url } = notify(ctx, valid);
    const { 'wechatpay-signature': _signature, ...unsigned } = headers;
    await expectRefused({ body, headers: unsigned as typeof headers, url }, 400, /headers/);
    expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('NOTPAY');
  });

  it('a valid notification pays the order once; its replay answers 204 and changes nothing', async () => {
    const order = await buy(ctx, [2]);
    const prepared = notify(ctx, paidResource(ctx, order));
    expect((await deliver(ctx, prepared)).statusCode).toBe(204);
    const paid = await orderOf(ctx, order.outTradeNo);
    expect(paid).toMatchObject({ tradeState: 'SUCCESS', transactionId: '4200000000202611220000000001' });
    const end = await serviceEnd(ctx, 2);
    const before = await tableChecksum(ctx.database, TABLES);
    expect((await deliver(ctx, prepared)).statusCode).toBe(204);
    expect((await deliver(ctx, notify(ctx, paidResource(ctx, order)))).statusCode).toBe(204);
    expect(await tableChecksum(ctx.database, TABLES)).toBe(before);
    expect(await serviceEnd(ctx, 2)).toBe(end);
  });

  it('20 identical notifications at once change the state once: one payment, one extension, one system-log row', async () => {
    const order = await buy(ctx, [3]);
    const start = Date.now();
    const prepared = notify(ctx, paidResource(ctx, order));
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(ctx, prepared)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(204));
    expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('SUCCESS');
    const end = (await serviceEnd(ctx, 3)) ?? 0;
    expect(end - start).toBeGreaterThan(360 * 86_400_000);
    expect(end - start).toBeLessThan(367 * 86_400_000);
    const [logged] = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from audit_log where action = 'wxpay-paid' and target = ${order.outTradeNo}`));
    expect(logged?.n).toBe(1);
  });

  it('never logs the API v3 key or the merchant key, and answers FAIL to a body that is not JSON', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/iot/v1/wx/wxPay/native/notify', headers: { 'content-type': 'application/json' }, payload: 'not json' });
    expect([response.statusCode, response.json().code]).toEqual([400, 'FAIL']);
    expect(JSON.stringify(ctx.app.payments?.merchant.privateKey)).toBe('{}');
  });
});
