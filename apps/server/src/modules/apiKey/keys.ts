/**
 * API key material (docs/identity.md "API keys"): a key is `iotk_` + a 12-character lookup
 * id + `_` + 256 random bits (43 characters base64url), 61 characters in all. The row keeps the public
 * prefix (`iotk_` + lookup id) and the SHA-256 (hex) of the whole key; the key itself is shown once.
 * Allowed client networks are CIDRs matched with ipaddr.js (IPv4-mapped IPv6 addresses as IPv4).
 */
import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '@iot/contract';
import ipaddr from 'ipaddr.js';
import { fieldError } from '../../http/api-error.js';

const KEY_PATTERN = /^iotk_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = API_KEY_PREFIX.length + 12;

/** SHA-256 (hex) of a key: what the table stores. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** A new key's public prefix (`iotk_` + lookup id). */
export const newPrefix = () => `${API_KEY_PREFIX}${randomBytes(9).toString('base64url')}`;

/** A new key under `prefix`. */
export const newKey = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** The prefix of a well-formed key; undefined for anything else. */
export function prefixOf(key: string): string | undefined {
  return KEY_PATTERN.test(key) ? key.slice(0, PREFIX_LENGTH) : undefined;
}

/** Checks and normalises CIDRs (`10.0.0.0/8`, `2001:db8::/32`); 400 naming the first bad one. */
export function parseNetworks(networks: readonly string[], field = 'body.allowedNetworks'): string[] {
  return networks.map((network, index) => {
    try {
      const [address, bits] = ipaddr.parseCIDR(network);
      return `${address.toString()}/${bits}`;
    } catch {
      throw fieldError(`${field}.${index}`, `不是有效的 CIDR 网段：${network}`, `not a valid CIDR network: ${network}`);
    }
  });
}

/** True when `address` (the request's client address) lies in one of `networks` (none: any address). */
export function addressAllowed(address: string, networks: readonly string[]): boolean {
  if (networks.length === 0) return true;
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return networks.some((network) => {
    const range = ipaddr.parseCIDR(network);
    return parsed.kind() === range[0].kind() && parsed.match(range);
  });
}
