/**
 * The payment provider of this process: WeChat Pay (wechatPay/, the one adapter of provider.ts) when
 * its merchant settings are configured, otherwise with DEMO=on the in-process WeChat Pay sandbox (a real
 * HTTP server on 127.0.0.1), otherwise none (payments answer 502 PAYMENT_UNAVAILABLE). One client and
 * one code path for both.
 */
import { WXPAY_NOTIFY_PATHS } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/api-error.js';
import type { Sandbox } from '../../demo/wxPaySandbox/provider.js';
import type { PaymentProvider } from './provider.js';
import { createWechatPay } from './wechatPay/client.js';
import { type MerchantSettings, merchantSettingsFrom } from './wechatPay/settings.js';

export interface Payments {
  provider: PaymentProvider;
  /** WeChat Pay's merchant settings: its notifications are opened and matched with them (wechatPay/notify-routes.ts). */
  merchant: MerchantSettings;
  /** Present in the demo. */
  sandbox?: Sandbox;
  /** Where WeChat Pay posts notifications of `kind`. */
  notifyUrl(kind: keyof typeof WXPAY_NOTIFY_PATHS): string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Undefined without merchant settings outside the demo. */
    payments?: Payments;
  }
}

/** Sets up `app.payments` (and stops the sandbox when the app closes). */
export async function setUpPayments(app: FastifyInstance): Promise<void> {
  const configured = merchantSettingsFrom(app.config);
  // The sandbox is demo code: loaded only when it runs, so DEMO=off never loads it.
  const sandbox = configured || !app.config.DEMO ? undefined : await (await import('../../demo/wxPaySandbox/provider.js')).startSandbox(app.config.WXPAY_SANDBOX_PORT);
  if (sandbox) app.addHook('onClose', () => sandbox.close());
  const settings = configured ?? sandbox?.settings;
  const notifyBase = () => {
    if (app.config.WXPAY_NOTIFY_BASE) return app.config.WXPAY_NOTIFY_BASE.replace(/\/$/, '');
    const address = app.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : app.config.PORT}`;
  };
  const payments: Payments | undefined = settings ? {
    provider: createWechatPay(settings), merchant: settings, sandbox, notifyUrl: (kind) => `${notifyBase()}${WXPAY_NOTIFY_PATHS[kind]}`,
  } : undefined;
  app.decorate('payments', payments);
}

/** The process's payments, or 502 PAYMENT_UNAVAILABLE. */
export function paymentsOf(app: FastifyInstance): Payments {
  if (!app.payments) throw new ApiError('PAYMENT_UNAVAILABLE');
  return app.payments;
}
