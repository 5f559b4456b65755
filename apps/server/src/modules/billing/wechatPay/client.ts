/**
 * WeChat Pay as billing's payment provider (../provider.ts): the API v3 client on
 * wechatpay-axios-plugin. Every request is signed with the merchant key (Authorization:
 * WECHATPAY2-SHA256-RSA2048); every answer's Wechatpay-Signature is verified with the platform key its
 * Wechatpay-Serial names, within 5 minutes of its timestamp. The same client talks to WeChat Pay or to
 * the sandbox (only the base URL differs). Errors are turned into PaymentProviderError with the
 * provider's code and message only: axios errors carry the request configuration (the merchant key), so
 * they are never logged or rethrown as they are. Answers are checked against the merchant and mapped to
 * billing's terms (resources.ts paymentFrom, refundFrom), and WeChat Pay's error codes to billing's
 * outcomes (WECHAT_PAY_CODES): a 4xx answer is `refused`, anything else `unavailable`.
 */
import { Decorator } from 'wechatpay-axios-plugin';
import { z } from 'zod';
import { type PaymentProvider, PaymentProviderError } from '../provider.js';
import { paymentFrom, refundFrom } from './resources.js';
import type { MerchantSettings } from './settings.js';

/** A transaction as WeChat Pay describes it (query answers and TRANSACTION.* notifications). */
export const transactionResource = z.object({
  appid: z.string(),
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_state: z.string(),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int().optional(), payer_total: z.number().int().optional(), currency: z.string().optional() }).optional(),
});
export type TransactionResource = z.infer<typeof transactionResource>;

/** A refund as WeChat Pay describes it (refund answers and REFUND.* notifications; `refund_status` in notifications). */
export const refundResource = z.object({
  mchid: z.string().optional(),
  out_trade_no: z.string(),
  out_refund_no: z.string(),
  transaction_id: z.string().optional(),
  refund_id: z.string(),
  status: z.string().optional(),
  refund_status: z.string().optional(),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int(), refund: z.number().int() }),
});
export type RefundResource = z.infer<typeof refundResource>;

/** RFC 3339 with offset, as WeChat Pay wants time_expire. */
export const rfc3339 = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, '+00:00');

/**
 * The error codes of WeChat Pay API v3 that billing acts on (错误码 of 查询订单 and 关闭订单): the order
 * is unknown to WeChat Pay (HTTP 404), or it was paid and cannot be closed (HTTP 400).
 */
const WECHAT_PAY_CODES = { orderNotFound: 'ORDER_NOT_EXIST', orderPaid: 'ORDERPAID' } as const;

interface AxiosLikeError { response?: { status?: number; data?: unknown }; code?: string; message?: string }

/** The provider's { code, message } of a failure, without anything of the request: 4xx refused, else unavailable. */
function providerError(error: unknown): PaymentProviderError {
  const failure = error as AxiosLikeError;
  const status = failure.response?.status ?? 0;
  const data = failure.response?.data as { code?: unknown; message?: unknown } | undefined;
  const code = typeof data?.code === 'string' ? data.code : (failure.code ?? 'NETWORK');
  const message = typeof data?.message === 'string' ? data.message : status ? `HTTP ${status}` : 'no genuine answer';
  return new PaymentProviderError(status >= 400 && status < 500 ? 'refused' : 'unavailable', code.slice(0, 64), message.slice(0, 200));
}

/** `fallback` when the call failed with WeChat Pay's `code`; any other failure is rethrown. */
const whenCode = <T>(code: string, fallback: T) => (error: unknown): T => {
  if (error instanceof PaymentProviderError && error.providerCode === code) return fallback;
  throw error;
};

/** WeChat Pay for the merchant of `settings`. */
export function createWechatPay(settings: MerchantSettings): PaymentProvider {
  const http = Decorator.jsonBased({
    mchid: settings.mchid, serial: settings.serial, privateKey: settings.privateKey, certs: settings.platformKeys,
    baseURL: settings.baseUrl, timeout: 10_000,
  } as Parameters<typeof Decorator.jsonBased>[0]);
  const send = async <T>(schema: z.ZodType<T> | undefined, method: 'get' | 'post', url: string, body?: object): Promise<T> => {
    let data: unknown;
    try {
      data = (await (method === 'get' ? http.get(url) : http.post(url, body))).data;
    } catch (error) {
      throw providerError(error);
    }
    if (!schema) return undefined as T;
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new PaymentProviderError('unavailable', 'MALFORMED', 'unexpected answer');
    return parsed.data;
  };
  const mchid = encodeURIComponent(settings.mchid);
  return {
    auditName: 'wechatpay',
    async createNative({ outTradeNo, description, amountFen, expiresAt, notifyUrl }) {
      const answer = await send(z.object({ code_url: z.string().min(1) }), 'post', 'v3/pay/transactions/native', {
        appid: settings.appid, mchid: settings.mchid, description, out_trade_no: outTradeNo, time_expire: rfc3339(expiresAt),
        notify_url: notifyUrl, amount: { total: amountFen, currency: 'CNY' },
      });
      return answer.code_url;
    },
    async queryOrder(outTradeNo) {
      const found = await send(transactionResource, 'get', `v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${mchid}`)
        .catch(whenCode(WECHAT_PAY_CODES.orderNotFound, undefined));
      return found && paymentFrom(found, settings);
    },
    closeOrder: (outTradeNo) =>
      send(undefined, 'post', `v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, { mchid: settings.mchid })
        .then(() => 'closed' as const, whenCode(WECHAT_PAY_CODES.orderPaid, 'alreadyPaid' as const)),
    refund: async ({ outTradeNo, outRefundNo, amountFen, totalFen, reason, notifyUrl }) =>
      refundFrom(await send(refundResource, 'post', 'v3/refund/domestic/refunds', {
        out_trade_no: outTradeNo, out_refund_no: outRefundNo, reason, notify_url: notifyUrl,
        amount: { refund: amountFen, total: totalFen, currency: 'CNY' },
      }), settings),
    queryRefund: async (outRefundNo) => refundFrom(await send(refundResource, 'get', `v3/refund/domestic/refunds/${encodeURIComponent(outRefundNo)}`), settings),
  };
}
