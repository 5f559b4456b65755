/**
 * Merchant settings of WeChat Pay API v3 from the configuration: mchid, appid, the
 * merchant's serial and private key (signs requests), the API v3 key (decrypts notifications) and the
 * platform's serial and public key (verifies answers and notifications, chosen by Wechatpay-Serial).
 * Keys are PEM text or a path to a PEM file. Secrets stay in this object: never logged, never stored.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Config } from '../../../config.js';

export interface MerchantSettings {
  mchid: string;
  appid: string;
  /** Merchant certificate serial (the Authorization header's serial_no). */
  serial: string;
  privateKey: KeyObject;
  /** 32 characters; AEAD_AES_256_GCM key of notification resources. */
  apiV3Key: string;
  /** Platform public keys by serial (Wechatpay-Serial). */
  platformKeys: Record<string, KeyObject>;
  /** WeChat Pay API base URL (the sandbox's in the demo). */
  baseUrl: string;
}

const REQUIRED = ['WXPAY_MCHID', 'WXPAY_APPID', 'WXPAY_MERCHANT_SERIAL', 'WXPAY_MERCHANT_PRIVATE_KEY', 'WXPAY_API_V3_KEY',
  'WXPAY_PLATFORM_SERIAL', 'WXPAY_PLATFORM_PUBLIC_KEY'] as const;

/** PEM text as it is, or the content of the file it names. */
function pem(value: string): string {
  return value.includes('-----BEGIN') ? value : readFileSync(value, 'utf8');
}

/**
 * The real provider's settings, or undefined when none is configured. Throws (naming the missing
 * variables, never their values) when only some are set or a key does not parse.
 */
export function merchantSettingsFrom(config: Config): MerchantSettings | undefined {
  const missing = REQUIRED.filter((name) => !config[name]);
  if (missing.length === REQUIRED.length) return undefined;
  if (missing.length > 0) throw new Error(`WeChat Pay settings incomplete: set ${missing.join(', ')}`);
  try {
    return {
      mchid: config.WXPAY_MCHID as string,
      appid: config.WXPAY_APPID as string,
      serial: config.WXPAY_MERCHANT_SERIAL as string,
      privateKey: createPrivateKey(pem(config.WXPAY_MERCHANT_PRIVATE_KEY as string)),
      apiV3Key: config.WXPAY_API_V3_KEY as string,
      platformKeys: { [config.WXPAY_PLATFORM_SERIAL as string]: createPublicKey(pem(config.WXPAY_PLATFORM_PUBLIC_KEY as string)) },
      baseUrl: config.WXPAY_BASE_URL,
    };
  } catch {
    throw new Error('WeChat Pay settings: WXPAY_MERCHANT_PRIVATE_KEY or WXPAY_PLATFORM_PUBLIC_KEY is not a readable PEM key (or file)');
  }
}

/**
 * The WXPAY_* variables of the server configuration (config.ts), read by merchantSettingsFrom. All of
 * MCHID, APPID, MERCHANT_SERIAL, MERCHANT_PRIVATE_KEY, API_V3_KEY, PLATFORM_SERIAL and
 * PLATFORM_PUBLIC_KEY set: the real provider. None set: DEMO=on runs the sandbox provider, DEMO=off has
 * no payments. Keys: PEM text or a file path.
 */
export const wechatPayEnv = {
  WXPAY_MCHID: z.string().regex(/^\d{6,32}$/).optional(),
  WXPAY_APPID: z.string().regex(/^[A-Za-z0-9_-]{4,64}$/).optional(),
  WXPAY_MERCHANT_SERIAL: z.string().regex(/^[A-Za-z0-9_]{8,64}$/).optional(),
  WXPAY_MERCHANT_PRIVATE_KEY: z.string().optional(),
  WXPAY_API_V3_KEY: z.string().length(32, 'the API v3 key has 32 characters').optional(),
  WXPAY_PLATFORM_SERIAL: z.string().regex(/^[A-Za-z0-9_]{8,64}$/).optional(),
  WXPAY_PLATFORM_PUBLIC_KEY: z.string().optional(),
  /** Base URL of WeChat Pay's API. */
  WXPAY_BASE_URL: z.url().default('https://api.mch.weixin.qq.com/'),
  /** Public https origin WeChat Pay posts notifications to (e.g. https://iot.example.com); default: this server on 127.0.0.1. */
  WXPAY_NOTIFY_BASE: z.url().optional(),
  /** An order's QR code is valid this long, s (WeChat Pay time_expire). */
  WXPAY_ORDER_TTL_S: z.coerce.number().int().min(60).max(7 * 86_400).default(900),
  /** Period of the reconciliation job (open orders and refunds asked at WeChat Pay), ms; 0: off. */
  WXPAY_RECONCILE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** Sandbox provider's port (DEMO=on without merchant settings); 0: any free port. */
  WXPAY_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(0),
};
