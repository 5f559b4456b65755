/** Shared setup of the payment tests: a listening app with the sandbox, deterministic delivery, helpers. */
import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Sandbox } from '../src/demo/wxPaySandbox/provider.js';
import { signedNotification } from '../src/demo/wxPaySandbox/signing.js';
import { call, createTestContext, dataOf, rowsOf, signIn, type TestContext } from './helper.js';

export interface PayContext extends TestContext {
  token: string;
  sandbox: Sandbox;
}

/** App on a free port (so the sandbox's notifications reach it), sandbox delivering at once, once. */
export async function createPayContext(): Promise<PayContext> {
  const ctx = await createTestContext({ WXPAY_RECONCILE_MS: 0 }, 3);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const sandbox = ctx.app.payments?.sandbox as Sandbox;
  Object.assign(sandbox.behaviour, { duplicateRate: 0, delayMs: [0, 0], lateRate: 0, drop: false, refundDelayMs: 20 });
  return { ...ctx, sandbox, token: await signIn(ctx.app) };
}

/** Creates an order of package `productId` for `lockIds` as the administrator; returns the record. */
export async function buy(ctx: PayContext, lockIds = [1], productId = 1, tenantId = 100) {
  return dataOf(await call(ctx.app, ctx.token, { method: 'POST', url: '/iot/v1/wx/createOrder', payload: { productId, lockIds }, tenantId }));
}

/** The order as the API shows it. */
export async function orderOf(ctx: PayContext, outTradeNo: string, tenantId = 100) {
  return dataOf(await call(ctx.app, ctx.token, { method: 'GET', url: `/iot/v1/wx/orderInfo?outTradeNo=${outTradeNo}`, tenantId }));
}

/** Waits until the order reaches `state` (notifications arrive over HTTP). */
export async function waitForState(ctx: PayContext, outTradeNo: string, state: string) {
  await expect.poll(async () => (await orderOf(ctx, outTradeNo)).tradeState, { timeout: 10_000, interval: 50 }).toBe(state);
}

/** A lock's service end, ms since epoch (null when never covered). */
export async function serviceEnd(ctx: TestContext, lockId: number): Promise<number | null> {
  const [row] = await rowsOf<{ end: string | Date | null }>(ctx.database.system.execute(sql`select service_end_at as "end" from locks where id = ${lockId}`));
  return row?.end ? new Date(row.end).getTime() : null;
}

/** A transaction resource as WeChat Pay sends it for `order`, with `overrides`. */
export function paidResource(ctx: PayContext, order: { outTradeNo: string; amountFen: number }, overrides: Record<string, unknown> = {}) {
  const { mchid, appid } = ctx.sandbox.settings;
  return {
    appid, mchid, out_trade_no: order.outTradeNo, transaction_id: '4200000000202611220000000001', trade_type: 'NATIVE', trade_state: 'SUCCESS',
    trade_state_desc: '支付成功', bank_type: 'OTHERS', success_time: new Date().toISOString(), amount: { total: order.amountFen, payer_total: order.amountFen, currency: 'CNY' },
    ...overrides,
  };
}

/** Posts a signed payment notification (signed by the sandbox's platform key unless `signer` says otherwise). */
export function notify(ctx: PayContext, resource: object, options: { timestamp?: number; signer?: Sandbox['signer']; tamper?: (body: string) => string; kind?: 'notify' | 'refundNotify'; eventType?: string } = {}) {
  const eventType = options.eventType ?? (options.kind === 'refundNotify' ? 'REFUND.SUCCESS' : 'TRANSACTION.SUCCESS');
  const { body, headers } = signedNotification(eventType, resource, ctx.sandbox.settings.apiV3Key, options.signer ?? ctx.sandbox.signer, options.timestamp);
  return { body: options.tamper ? options.tamper(body) : body, headers, url: `/iot/v1/wx/wxPay/native/${options.kind ?? 'notify'}` };
}

/** Sends a prepared notification through the app. */
export function deliver(ctx: PayContext, prepared: ReturnType<typeof notify>) {
  return ctx.app.inject({ method: 'POST', url: prepared.url, headers: prepared.headers, payload: prepared.body });
}

/** A platform signer WeChat Pay never announced. */
export function strangerSigner(): Sandbox['signer'] {
  return { serial: 'STRANGER0000000001', privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey };
}
