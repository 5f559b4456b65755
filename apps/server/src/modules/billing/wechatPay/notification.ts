/**
 * Verifies and opens a WeChat Pay API v3 notification: Wechatpay-Signature is
 * SHA256withRSA over `timestamp\nnonce\nbody\n` with the platform key Wechatpay-Serial names, the
 * timestamp at most 5 minutes old and at most a minute ahead (clock skew), then `resource` is decrypted with AEAD_AES_256_GCM under the API
 * v3 key (wechatpay-axios-plugin's Rsa / AesGcm / Formatter, on Node's crypto). Throws
 * PaymentReportRefused (status and a message fit for logs: no header values, no body) on any failure.
 */
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';
import { z } from 'zod';
import { PaymentReportRefused } from '../provider.js';
import type { MerchantSettings } from './settings.js';

/** Oldest Wechatpay-Timestamp accepted: this long before now, s (WeChat Pay's 5 minutes). */
export const NOTIFICATION_WINDOW_S = 300;
/**
 * Furthest a Wechatpay-Timestamp may lie ahead of now, s: a notification cannot be sent
 * in the future, so only clock skew is allowed; at 5 minutes a timestamp "5 minutes and 1 second ahead"
 * was accepted once its transit had used up that second.
 */
export const NOTIFICATION_FUTURE_SKEW_S = 60;

const envelope = z.object({
  id: z.string().max(64),
  event_type: z.string().max(64),
  resource_type: z.string().max(64).optional(),
  resource: z.object({
    algorithm: z.literal('AEAD_AES_256_GCM'),
    ciphertext: z.string().min(1).max(65_536),
    nonce: z.string().min(1).max(64),
    associated_data: z.string().max(256).optional(),
    original_type: z.string().max(64).optional(),
  }),
});

export interface OpenedNotification {
  id: string;
  eventType: string;
  /** The decrypted resource, parsed as JSON (the caller validates its shape). */
  resource: unknown;
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Verifies `rawBody` with `headers` and decrypts its resource; `nowS`: Unix time, s (fractional). */
export function openNotification(headers: Headers, rawBody: string, settings: MerchantSettings, nowS = Date.now() / 1000): OpenedNotification {
  const timestamp = header(headers, 'wechatpay-timestamp');
  const nonce = header(headers, 'wechatpay-nonce');
  const signature = header(headers, 'wechatpay-signature');
  const serial = header(headers, 'wechatpay-serial');
  if (!timestamp || !nonce || !signature || !serial) throw new PaymentReportRefused(400, 'missing Wechatpay-* headers');
  const age = nowS - Number(timestamp);
  if (!/^\d{1,12}$/.test(timestamp) || age > NOTIFICATION_WINDOW_S || -age > NOTIFICATION_FUTURE_SKEW_S) {
    throw new PaymentReportRefused(400, 'timestamp outside the 5-minute window');
  }
  const key = Object.hasOwn(settings.platformKeys, serial) ? settings.platformKeys[serial] : undefined;
  if (!key) throw new PaymentReportRefused(401, 'unknown Wechatpay-Serial');
  let genuine = false;
  try {
    genuine = Rsa.verify(Formatter.response(timestamp, nonce, rawBody), signature, key);
  } catch {
    genuine = false;
  }
  if (!genuine) throw new PaymentReportRefused(401, 'signature does not verify');
  let parsed: z.infer<typeof envelope>;
  try {
    parsed = envelope.parse(JSON.parse(rawBody));
  } catch {
    throw new PaymentReportRefused(400, 'malformed notification body');
  }
  const { ciphertext, nonce: iv, associated_data: aad = '' } = parsed.resource;
  try {
    const plain = Aes.AesGcm.decrypt(ciphertext, settings.apiV3Key, iv, aad);
    return { id: parsed.id, eventType: parsed.event_type, resource: JSON.parse(plain) };
  } catch {
    throw new PaymentReportRefused(400, 'resource does not decrypt');
  }
}
