/**
 * WeChat Pay notifications with a genuine signature that must still be refused: a timestamp
 * more than 5 minutes in the future or the past, a decrypted resource missing a field the change relies
 * on (transaction_id, success_time, amount, currency) or disagreeing with the order (out_trade_no, amount,
 * currency, transaction_id) or with its event type. Each answers 4xx and changes nothing: the order stays
 * unpaid, the lock's service does not move, no system-log row; the same for refund notifications.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refunds } from '../src/db/schema.js';
import { call, dataOf, skipSuite, tableChecksum } from './helper.js';
import { buy, createPayContext, deliver, notify, orderOf, type PayContext, paidResource, serviceEnd, waitForState } from './wx-support.js';

const GUARDED = ['orders', 'refunds', 'locks', 'audit_log'];

describe.skipIf(skipSuite)('WeChat Pay notification fields', () => {
  let ctx: PayContext;
  beforeAll(async () => {
    ctx = await createPayContext();
    ctx.sandbox.behaviour.drop = true; // only the notifications this test sends arrive
  });
  afterAll(() => ctx?.close());

  /** Delivers `prepared`, expects `status` and no change to orders, refunds, locks or the system log. */
  async function refused(prepared: ReturnType<typeof notify>, status: number, reason: string) {
    const before = await tableChecksum(ctx.database, GUARDED);
    const response = await deliver(ctx, prepared);
    expect([reason, response.statusCode]).toEqual([reason, status]);
    expect(response.json()).toMatchObject({ code: 'FAIL', message: expect.stringContaining(reason) });
    expect([reason, await tableChecksum(ctx.database, GUARDED)]).toEqual([reason, before]);
  }

  it('refuses payment notifications with a bad timestamp or missing or mismatched fields, then applies the genuine one', async () => {
    const order = await buy(ctx, [2]);
    const endBefore = await serviceEnd(ctx, 2);
    const now = Math.floor(Date.now() / 1000);
    const paid = (overrides: Record<string, unknown> = {}) => paidResource(ctx, order, overrides);
    await refused(notify(ctx, paid(), { timestamp: now + 301 }), 400, 'timestamp outside the 5-minute window');
    // 70 s, not 61: past the 1-minute allowance even after seconds of transit on a loaded machine.
    await refused(notify(ctx, paid(), { timestamp: now + 70 }), 400, 'timestamp outside the 5-minute window');
    await refused(notify(ctx, paid(), { timestamp: now + 3600 }), 400, 'timestamp outside the 5-minute window');
    await refused(notify(ctx, paid(), { timestamp: now - 301 }), 400, 'timestamp outside the 5-minute window');
    await refused(notify(ctx, paid({ transaction_id: undefined })), 400, 'transaction_id missing or malformed');
    await refused(notify(ctx, paid({ transaction_id: '' })), 400, 'transaction_id missing or malformed');
    await refused(notify(ctx, paid({ success_time: undefined })), 400, 'success_time missing or malformed');
    await refused(notify(ctx, paid({ amount: { total: order.amountFen } })), 400, 'amount.currency missing or malformed');
    await refused(notify(ctx, paid({ amount: { total: order.amountFen, currency: 'USD' } })), 400, 'currency does not match');
    await refused(notify(ctx, paid({ amount: { total: 1, currency: 'CNY' } })), 400, 'amount does not match');
    await refused(notify(ctx, paid({ mchid: '1900000000' })), 400, 'mchid does not match');
    await refused(notify(ctx, paid({ appid: 'wx0000000000000000' })), 400, 'appid does not match');
    await refused(notify(ctx, paid({ out_trade_no: 'IOT00000000000000000000000' })), 404, 'unknown out_trade_no');
    await refused(notify(ctx, paid({ trade_state: 'NOTPAY' })), 400, 'trade_state missing or malformed');
    await refused(notify(ctx, paid(), { eventType: 'TRANSACTION.CLOSED' }), 400, 'unexpected event_type');
    expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('NOTPAY');
    expect(await serviceEnd(ctx, 2)).toBe(endBefore);

    expect((await deliver(ctx, notify(ctx, paid()))).statusCode).toBe(204);
    expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('SUCCESS');
    expect(await serviceEnd(ctx, 2)).not.toBe(endBefore);
    // A genuine replay is fine; another transaction for the paid order is not.
    expect((await deliver(ctx, notify(ctx, paid()))).statusCode).toBe(204);
    await refused(notify(ctx, paid({ transaction_id: '4200000000202611220000000999' })), 400, 'transaction_id does not match');
  });

  it('refuses refund notifications with a bad timestamp or missing or mismatched fields, then applies the genuine one', async () => {
    const order = await buy(ctx, [3]);
    ctx.sandbox.behaviour.drop = false;
    expect(ctx.sandbox.pay(order.outTradeNo)).toBe(true);
    await waitForState(ctx, order.outTradeNo, 'SUCCESS');
    ctx.sandbox.behaviour.drop = true;
    const transactionId = (await orderOf(ctx, order.outTradeNo)).transactionId;
    dataOf(await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/orderInfo/refund', payload: { outTradeNo: order.outTradeNo, amountFen: order.amountFen, reason: 'fields' } }));
    const [refund] = await ctx.database.system.select().from(refunds).where(eq(refunds.orderId, order.id));
    // Still PROCESSING: the sandbox's own notification was dropped.
    await ctx.database.system.execute(sql`update refunds set status = 'PROCESSING', success_time = null where id = ${refund?.id}`);
    await ctx.database.system.execute(sql`update orders set trade_state = 'SUCCESS', refunded_fen = 0, service_applied = true where id = ${order.id}`);
    const resource = (overrides: Record<string, unknown> = {}) => ({
      mchid: ctx.sandbox.settings.mchid, out_trade_no: order.outTradeNo, transaction_id: transactionId, out_refund_no: refund?.outRefundNo,
      refund_id: '50000000002026112200000001', refund_status: 'SUCCESS', success_time: new Date().toISOString(), user_received_account: '支付用户零钱',
      amount: { total: order.amountFen, refund: order.amountFen, payer_total: order.amountFen, payer_refund: order.amountFen }, ...overrides,
    });
    const refundNotify = (overrides: Record<string, unknown> = {}, options: { timestamp?: number; eventType?: string } = {}) =>
      notify(ctx, resource(overrides), { kind: 'refundNotify', ...options });
    const now = Math.floor(Date.now() / 1000);
    await refused(refundNotify({}, { timestamp: now + 301 }), 400, 'timestamp outside the 5-minute window');
    await refused(refundNotify({}, { timestamp: now - 301 }), 400, 'timestamp outside the 5-minute window');
    await refused(refundNotify({ transaction_id: undefined }), 400, 'transaction_id missing or malformed');
    await refused(refundNotify({ transaction_id: '4200000000202611220000000999' }), 400, 'transaction_id does not match');
    await refused(refundNotify({ mchid: undefined }), 400, 'mchid missing or malformed');
    await refused(refundNotify({ mchid: '1900000000' }), 400, 'mchid does not match');
    await refused(refundNotify({ success_time: undefined }), 400, 'success_time missing or malformed');
    await refused(refundNotify({ amount: { total: order.amountFen, refund: 1 } }), 400, 'amount does not match');
    await refused(refundNotify({ refund_status: 'CLOSED' }), 400, 'refund_status does not match event_type');
    await refused(refundNotify({ out_refund_no: 'RFD00000000000000000000000' }), 404, 'unknown out_refund_no');
    expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('SUCCESS');

    expect((await deliver(ctx, refundNotify())).statusCode).toBe(204);
    expect((await orderOf(ctx, order.outTradeNo)).tradeState).toBe('REFUND');
  });
});
