/**
 * Device credentials: a random 128-bit secret per lock, stored as its SHA-256 hex digest. A secret of
 * that entropy needs no slow password hash, which keeps thousands of reconnecting devices cheap.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh device secret: 32 hex characters (128 bits). */
export function newDeviceSecret(): string {
  return randomBytes(16).toString('hex');
}

/** SHA-256 hex digest of a device secret. */
export function hashDeviceSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time check of a presented secret against a stored digest. */
export function verifyDeviceSecret(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashDeviceSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
