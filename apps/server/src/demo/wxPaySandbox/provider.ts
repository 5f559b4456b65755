/**
 * The sandbox payment provider: a real HTTP server speaking the WeChat Pay API v3 calls
 * the platform uses (Native order, query, close, refund, refund query), checking the merchant's
 * Authorization signature and signing every answer with a locally generated platform key. Its
 * code_url is the path of its pay page on the platform's own origin (contract WXPAY_SANDBOX_PAY_PATH;
 * the platform serves it with `payPage`, wxPaySandbox/routes.ts); confirming there sends a genuinely signed and encrypted
 * TRANSACTION.SUCCESS notification to the order's notify_url, sometimes twice, sometimes late (and
 * retried while refused), as WeChat Pay does. Refunds succeed after a moment with REFUND.SUCCESS.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { WXPAY_SANDBOX_PAY_PATH } from '@iot/contract';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { MerchantSettings } from '../../modules/billing/wechatPay/settings.js';
import { rfc3339 } from '../../modules/billing/wechatPay/client.js';
import { deliverer, type SandboxBehaviour, DEFAULT_BEHAVIOUR } from './delivery.js';
import { payPage } from './page.js';
import { type PlatformSigner, signedHeaders, verifyAuthorization } from './signing.js';

interface Transaction {
  appid: string; mchid: string; outTradeNo: string; description: string; amount: number; notifyUrl: string;
  expiresAt: Date; state: string; prepayId: string; transactionId?: string; successTime?: string;
}
interface Refund { outTradeNo: string; outRefundNo: string; refundId: string; amount: number; total: number; status: string; notifyUrl: string; successTime?: string }

export interface Sandbox {
  /** Settings the platform uses against this sandbox (the same shape as the real provider's). */
  settings: MerchantSettings;
  /** The platform key's signer (tests forge and replay notifications with it). */
  signer: PlatformSigner;
  url: string;
  behaviour: SandboxBehaviour;
  /** Confirms a payment as the pay page does (tests); false when the order cannot be paid. */
  pay(outTradeNo: string): boolean;
  /** The pay page of prepay id `id` (`confirm`: the payer pressed "confirm" first); undefined for an unknown id. */
  payPage(id: string, confirm: boolean): string | undefined;
  close(): Promise<void>;
}

const word = (n: number) => randomBytes(n).toString('hex').toUpperCase();

/** Starts the sandbox on 127.0.0.1:`port` (0: any free port). */
export async function startSandbox(port = 0, behaviour: Partial<SandboxBehaviour> = {}): Promise<Sandbox> {
  const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signer: PlatformSigner = { serial: `SANDBOX${word(8)}`, privateKey: platform.privateKey };
  const mchid = '1900000109';
  const apiV3Key = randomBytes(24).toString('base64url').slice(0, 32);
  const options: SandboxBehaviour = { ...DEFAULT_BEHAVIOUR, ...behaviour };
  const transactions = new Map<string, Transaction>();
  const byPrepay = new Map<string, Transaction>();
  const refunds = new Map<string, Refund>();
  const deliver = deliverer(options, apiV3Key, signer);
  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const answer = (reply: FastifyReply, status: number, data?: object) => {
    const body = data ? JSON.stringify(data) : '';
    reply.code(status).headers(signedHeaders(body, signer));
    return data ? reply.type('application/json').send(body) : reply.send();
  };
  const genuine = (request: FastifyRequest) => verifyAuthorization(request.headers.authorization, request.method, request.url,
    typeof request.body === 'string' ? request.body : '', mchid, merchant.publicKey);
  const json = (request: FastifyRequest): Record<string, unknown> => {
    try { return JSON.parse(String(request.body ?? '{}')); } catch { return {}; }
  };
  const resourceOf = (t: Transaction) => ({
    appid: t.appid, mchid: t.mchid, out_trade_no: t.outTradeNo, trade_state: t.state, trade_state_desc: t.state,
    ...(t.transactionId ? { transaction_id: t.transactionId, success_time: t.successTime, bank_type: 'OTHERS' } : {}),
    amount: { total: t.amount, currency: 'CNY', ...(t.transactionId ? { payer_total: t.amount, payer_currency: 'CNY' } : {}) },
  });
  const refundOf = (r: Refund) => ({
    mchid, out_trade_no: r.outTradeNo, transaction_id: transactions.get(r.outTradeNo)?.transactionId, out_refund_no: r.outRefundNo, refund_id: r.refundId, status: r.status,
    ...(r.successTime ? { success_time: r.successTime } : {}), amount: { total: r.total, refund: r.amount, currency: 'CNY' },
  });
  const expire = (t: Transaction) => { if (t.state === 'NOTPAY' && t.expiresAt.getTime() <= Date.now()) t.state = 'CLOSED'; };

  app.addHook('preHandler', async (request, reply) => {
    if (request.url.startsWith('/v3/') && !genuine(request)) return answer(reply, 401, { code: 'SIGN_ERROR', message: '签名错误' });
  });
  app.post('/v3/pay/transactions/native', async (request, reply) => {
    const body = json(request) as { appid?: string; mchid?: string; description?: string; out_trade_no?: string; time_expire?: string; notify_url?: string; amount?: { total?: number } };
    if (body.mchid !== mchid || !body.appid || !body.out_trade_no || !body.notify_url || !Number.isInteger(body.amount?.total)) {
      return answer(reply, 400, { code: 'PARAM_ERROR', message: '参数错误' });
    }
    if (transactions.has(body.out_trade_no)) return answer(reply, 400, { code: 'OUT_TRADE_NO_USED', message: '商户订单号重复' });
    const t: Transaction = {
      appid: body.appid, mchid, outTradeNo: body.out_trade_no, description: body.description ?? '', amount: body.amount?.total as number,
      notifyUrl: body.notify_url, expiresAt: body.time_expire ? new Date(body.time_expire) : new Date(Date.now() + 7_200_000),
      state: 'NOTPAY', prepayId: `wx${word(12)}`,
    };
    transactions.set(t.outTradeNo, t);
    byPrepay.set(t.prepayId, t);
    return answer(reply, 200, { code_url: `${WXPAY_SANDBOX_PAY_PATH}?id=${t.prepayId}` });
  });
  app.get<{ Params: { no: string } }>('/v3/pay/transactions/out-trade-no/:no', async (request, reply) => {
    const t = transactions.get(request.params.no);
    if (!t) return answer(reply, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    expire(t);
    return answer(reply, 200, resourceOf(t));
  });
  app.post<{ Params: { no: string } }>('/v3/pay/transactions/out-trade-no/:no/close', async (request, reply) => {
    const t = transactions.get(request.params.no);
    if (!t) return answer(reply, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    if (t.state === 'SUCCESS' || t.state === 'REFUND') return answer(reply, 400, { code: 'ORDERPAID', message: '订单已支付' });
    t.state = 'CLOSED';
    return answer(reply, 204);
  });
  app.post('/v3/refund/domestic/refunds', async (request, reply) => {
    const body = json(request) as { out_trade_no?: string; out_refund_no?: string; notify_url?: string; amount?: { refund?: number; total?: number } };
    const t = body.out_trade_no ? transactions.get(body.out_trade_no) : undefined;
    if (!t || !body.out_refund_no || !body.notify_url) return answer(reply, 400, { code: 'PARAM_ERROR', message: '参数错误' });
    const existing = refunds.get(body.out_refund_no);
    if (existing) return answer(reply, 200, refundOf(existing));
    const already = [...refunds.values()].filter((r) => r.outTradeNo === t.outTradeNo).reduce((sum, r) => sum + r.amount, 0);
    const amount = body.amount?.refund ?? 0;
    if (!(t.state === 'SUCCESS' || t.state === 'REFUND') || body.amount?.total !== t.amount || amount < 1 || already + amount > t.amount) {
      return answer(reply, 400, { code: 'INVALID_REQUEST', message: '退款金额或订单状态不符' });
    }
    const r: Refund = { outTradeNo: t.outTradeNo, outRefundNo: body.out_refund_no, refundId: `50${word(14)}`, amount, total: t.amount, status: 'PROCESSING', notifyUrl: body.notify_url };
    refunds.set(r.outRefundNo, r);
    deliver.later(options.refundDelayMs, () => {
      r.status = 'SUCCESS';
      r.successTime = rfc3339(new Date());
      t.state = 'REFUND';
      deliver.send(r.notifyUrl, 'REFUND.SUCCESS', { ...refundOf(r), refund_status: 'SUCCESS', user_received_account: '支付用户零钱' });
    });
    return answer(reply, 200, refundOf(r));
  });
  app.get<{ Params: { no: string } }>('/v3/refund/domestic/refunds/:no', async (request, reply) => {
    const r = refunds.get(request.params.no);
    return r ? answer(reply, 200, refundOf(r)) : answer(reply, 404, { code: 'RESOURCE_NOT_EXISTS', message: '退款单不存在' });
  });

  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  const sandbox: Sandbox = {
    settings: {
      mchid, appid: 'wxd0sandbox000001', serial: `MERCHANT${word(8)}`, privateKey: merchant.privateKey, apiV3Key,
      platformKeys: { [signer.serial]: platform.publicKey }, baseUrl: '',
    },
    signer,
    url: `http://localhost:${typeof address === 'object' && address ? address.port : port}`,
    behaviour: options,
    pay(outTradeNo) {
      const t = transactions.get(outTradeNo);
      if (!t) return false;
      expire(t);
      if (t.state !== 'NOTPAY') return false;
      t.state = 'SUCCESS';
      t.transactionId = `4200${word(12)}`;
      t.successTime = rfc3339(new Date());
      deliver.send(t.notifyUrl, 'TRANSACTION.SUCCESS', resourceOf(t));
      return true;
    },
    payPage(id, confirm) {
      const t = byPrepay.get(id);
      if (!t) return undefined;
      if (confirm) sandbox.pay(t.outTradeNo);
      expire(t);
      return payPage({ description: t.description, amountFen: t.amount, state: t.state, expiresAt: t.expiresAt, action: `${WXPAY_SANDBOX_PAY_PATH}?id=${t.prepayId}` });
    },
    async close() {
      deliver.stop();
      await app.close();
    },
  };
  sandbox.settings.baseUrl = `${sandbox.url}/`;
  return sandbox;
}
