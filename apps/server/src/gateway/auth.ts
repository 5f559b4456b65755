/**
 * Device authentication and topic rules (docs/protocol.md "Authentication").
 * Transport-neutral: the embedded broker maps the results onto aedes' hooks.
 */
import { protocol } from '@iot/contract';
import { hashDeviceSecret, verifyDeviceSecret } from '../crypto/device-secret.js';
import type { Database } from '../db/client.js';
import { findLockCredentials, type LockCredentials } from '../modules/lockDevice/credentials.js';
import type { DeviceSession } from './ingest.js';

/** MQTT 3.1.1 CONNACK return codes used for refusals. */
export const CONNACK = { IDENTIFIER_REJECTED: 2, BAD_USERNAME_OR_PASSWORD: 4, NOT_AUTHORIZED: 5 } as const;

export type AuthResult =
  | { ok: true; device: DeviceSession }
  | { ok: false; returnCode: (typeof CONNACK)[keyof typeof CONNACK]; reason: string };

/** Compared against when the IMEI is unknown, so both refusals cost the same. */
const DUMMY_HASH = hashDeviceSecret('no such device');
const MAX_SECRET_BYTES = 256;

/** Finds locks by IMEI; undefined when unknown. */
export type LockLookup = (imei: string) => Promise<Omit<LockCredentials, 'imei'> | undefined>;

/**
 * A LockLookup that coalesces the lookups arriving in the same event-loop turn into one
 * `where imei in (...)` query (at most 1,000 IMEIs each) on the owner connection, so a reconnect
 * storm of thousands of devices costs a few queries instead of thousands. Nothing is cached: every
 * call reads the current row. Rejects when the database fails.
 */
export function createLockLookup(database: Database): LockLookup {
  let pending = new Map<string, { resolve(row: Omit<LockCredentials, 'imei'> | undefined): void; reject(error: unknown): void }[]>();
  let scheduled = false;

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    const imeis = [...batch.keys()];
    for (let start = 0; start < imeis.length; start += 1000) {
      const chunk = imeis.slice(start, start + 1000);
      try {
        const rows = await findLockCredentials(database, chunk);
        const byImei = new Map(rows.map((row) => [row.imei, row]));
        for (const imei of chunk) for (const waiter of batch.get(imei) ?? []) waiter.resolve(byImei.get(imei));
      } catch (error) {
        for (const imei of chunk) for (const waiter of batch.get(imei) ?? []) waiter.reject(error);
      }
    }
  }

  return (imei) =>
    new Promise((resolve, reject) => {
      const waiters = pending.get(imei) ?? [];
      waiters.push({ resolve, reject });
      pending.set(imei, waiters);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
    });
}

/**
 * Checks a device's CONNECT credentials: username = IMEI (15 digits), password = device secret,
 * client id = IMEI. Reads the lock through `lookup` on every call (no cache, so a rotated secret or a
 * disabled lock takes effect at the next connect). Resolves with the session, or with a refusal
 * carrying the CONNACK code: 5 anonymous or disabled lock, 2 client id differs from the IMEI,
 * 4 malformed IMEI, unknown IMEI or wrong secret (one code for both, not to reveal which IMEIs exist).
 * Rejects only when the database fails.
 */
export async function authenticateDevice(
  lookup: LockLookup,
  clientId: string | null | undefined,
  username: string | undefined,
  password: Buffer | undefined,
): Promise<AuthResult> {
  if (!username || !password || password.length === 0) {
    return { ok: false, returnCode: CONNACK.NOT_AUTHORIZED, reason: 'anonymous' };
  }
  if (!protocol.imeiSchema.safeParse(username).success || password.length > MAX_SECRET_BYTES) {
    return { ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD, reason: 'malformed credentials' };
  }
  if (!clientId || clientId !== username || /[+#/]/.test(clientId)) {
    return { ok: false, returnCode: CONNACK.IDENTIFIER_REJECTED, reason: 'client id must equal the IMEI' };
  }
  const lock = await lookup(username);
  const secretOk = verifyDeviceSecret(password.toString('utf8'), lock?.hash ?? DUMMY_HASH);
  if (!lock || !secretOk) {
    return { ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD, reason: lock ? 'wrong secret' : 'unknown IMEI' };
  }
  if (!lock.enabled) return { ok: false, returnCode: CONNACK.NOT_AUTHORIZED, reason: 'lock disabled' };
  return { ok: true, device: { lockId: lock.id, tenantId: lock.tenantId, imei: username } };
}

/** A device may publish only to its own uplink topic `zg/{imei}/up`. */
export function mayPublish(device: DeviceSession, topic: string): boolean {
  return topic === protocol.uplinkTopic(device.imei);
}

/** A device may subscribe only to its own downlink topic `zg/{imei}/down` (no wildcards). */
export function maySubscribe(device: DeviceSession, topicFilter: string): boolean {
  return topicFilter === protocol.downlinkTopic(device.imei);
}
