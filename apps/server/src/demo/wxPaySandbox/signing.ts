/**
 * How the sandbox signs like WeChat Pay, with wechatpay-axios-plugin's Rsa / AesGcm /
 * Formatter: answers and notifications carry Wechatpay-Timestamp / -Nonce / -Serial / -Signature
 * (SHA256withRSA over `timestamp\nnonce\nbody\n` with the platform key); notification resources are
 * AEAD_AES_256_GCM under the API v3 key. Tests use the same functions to forge what they need.
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';

export interface PlatformSigner {
  serial: string;
  privateKey: KeyObject;
}

/** Wechatpay-* headers of `body`, signed by `signer` at `timestamp` (Unix s, default now). */
export function signedHeaders(body: string, signer: PlatformSigner, timestamp = Formatter.timestamp()): Record<string, string> {
  const nonce = Formatter.nonce(32);
  return {
    'wechatpay-timestamp': String(timestamp),
    'wechatpay-nonce': nonce,
    'wechatpay-serial': signer.serial,
    'wechatpay-signature': Rsa.sign(Formatter.response(timestamp, nonce, body), signer.privateKey),
  };
}

/** A notification body: `resource` encrypted with `apiV3Key`. */
export function notificationBody(eventType: string, resourceType: string, resource: object, apiV3Key: string, originalType: string): string {
  const nonce = Formatter.nonce(12);
  const associated = resourceType === 'encrypt-resource' ? originalType : '';
  return JSON.stringify({
    id: randomUUID(),
    create_time: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    resource_type: resourceType,
    event_type: eventType,
    summary: eventType.startsWith('REFUND') ? '退款成功' : '支付成功',
    resource: {
      original_type: originalType,
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: Aes.AesGcm.encrypt(JSON.stringify(resource), apiV3Key, nonce, associated),
      associated_data: associated,
      nonce,
    },
  });
}

/** A complete signed notification (headers and body) of a transaction or refund resource. */
export function signedNotification(eventType: string, resource: object, apiV3Key: string, signer: PlatformSigner, timestamp?: number): { body: string; headers: Record<string, string> } {
  const body = notificationBody(eventType, 'encrypt-resource', resource, apiV3Key, eventType.startsWith('REFUND') ? 'refund' : 'transaction');
  return { body, headers: { 'content-type': 'application/json', ...signedHeaders(body, signer, timestamp) } };
}

/** Parses `WECHATPAY2-SHA256-RSA2048 k="v",...`; undefined when it is not one. */
export function parseAuthorization(value: string | undefined): Record<string, string> | undefined {
  if (!value?.startsWith('WECHATPAY2-SHA256-RSA2048 ')) return undefined;
  const fields: Record<string, string> = {};
  for (const match of value.slice(26).matchAll(/(\w+)="([^"]*)"/g)) fields[match[1] as string] = match[2] as string;
  return fields;
}

/** True when `authorization` is the merchant's genuine signature of the request, made within 5 minutes. */
export function verifyAuthorization(authorization: string | undefined, method: string, uri: string, body: string, mchid: string, merchantKey: KeyObject): boolean {
  const fields = parseAuthorization(authorization);
  if (!fields || fields.mchid !== mchid || !fields.signature || !fields.timestamp || !fields.nonce_str) return false;
  if (Math.abs(Formatter.timestamp() - Number(fields.timestamp)) > 300) return false;
  try {
    return Rsa.verify(Formatter.request(method, uri, fields.timestamp, fields.nonce_str, body), fields.signature, merchantKey);
  } catch {
    return false;
  }
}
