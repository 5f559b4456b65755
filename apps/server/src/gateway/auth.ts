/**
 * Device authentication and topic rules (docs/protocol.md "Authentication").
 * Transport-neutral: the embedded broker maps the results onto aedes' hooks.
 */
import { protocol } from '@iot/contract';
import { hashDeviceSecret, verifyDeviceSecret } from '../crypto/device-secret.js';
import type { Database } from '../db/client.js';
import { findAirSwitchCredentials } from '../modules/airSwitch/registry.js';
import { findLockCredentials, type LockCredentials } from '../modules/lockDevice/credentials.js';
import type { GatewaySession } from './ingest.js';

/** MQTT 3.1.1 CONNACK return codes used for refusals. */
export const CONNACK = { IDENTIFIER_REJECTED: 2, BAD_USERNAME_OR_PASSWORD: 4, NOT_AUTHORIZED: 5 } as const;

export type AuthResult =
  | { ok: true; device: GatewaySession }
  | { ok: false; returnCode: (typeof CONNACK)[keyof typeof CONNACK]; reason: string };

/** Compared against when the IMEI is unknown, so both refusals cost the same. */
const DUMMY_HASH = hashDeviceSecret('no such device');
const MAX_SECRET_BYTES = 256;

/** Finds locks by IMEI; undefined when unknown. */
export type LockLookup = (imei: string) => Promise<Omit<LockCredentials, 'imei'> | undefined>;
/** What authenticating any device needs of its row. */
type Credentials = { id: number; tenantId: number; hash: string; enabled: boolean };
/** Finds air switches by serial; undefined when unknown. */
export type AirSwitchLookup = (serial: string) => Promise<Credentials | undefined>;

/**
 * A lookup that coalesces the calls arriving in the same event-loop turn into one `where key in (...)`
 * query (`find`, at most 1,000 keys each) on the owner connection, so a reconnect storm of thousands of
 * devices costs a few queries instead of thousands. Nothing is cached: every call reads the current
 * row. Rejects when the database fails.
 */
function coalescedLookup<R extends Credentials>(find: (keys: string[]) => Promise<R[]>, keyOf: (row: R) => string): (key: string) => Promise<R | undefined> {
  let pending = new Map<string, { resolve(row: R | undefined): void; reject(error: unknown): void }[]>();
  let scheduled = false;

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = pending;
    pending = new Map();
    const keys = [...batch.keys()];
    for (let start = 0; start < keys.length; start += 1000) {
      const chunk = keys.slice(start, start + 1000);
      try {
        const rows = await find(chunk);
        const byKey = new Map(rows.map((row) => [keyOf(row), row]));
        for (const key of chunk) for (const waiter of batch.get(key) ?? []) waiter.resolve(byKey.get(key));
      } catch (error) {
        for (const key of chunk) for (const waiter of batch.get(key) ?? []) waiter.reject(error);
      }
    }
  }

  return (key) =>
    new Promise((resolve, reject) => {
      const waiters = pending.get(key) ?? [];
      waiters.push({ resolve, reject });
      pending.set(key, waiters);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
    });
}

/** The coalescing LockLookup of `database` (see coalescedLookup). */
export function createLockLookup(database: Database): LockLookup {
  return coalescedLookup((imeis) => findLockCredentials(database, imeis), (row) => row.imei);
}

/** The coalescing AirSwitchLookup of `database` (see coalescedLookup). */
export function createAirSwitchLookup(database: Database): AirSwitchLookup {
  return coalescedLookup((serials) => findAirSwitchCredentials(database, serials), (row) => row.serial);
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
  airSwitchLookup?: AirSwitchLookup,
): Promise<AuthResult> {
  if (!username || !password || password.length === 0) {
    return { ok: false, returnCode: CONNACK.NOT_AUTHORIZED, reason: 'anonymous' };
  }
  if (airSwitchLookup && protocol.airSwitchIdSchema.safeParse(username).success && password.length <= MAX_SECRET_BYTES) {
    return authenticateAirSwitch(airSwitchLookup, clientId, username, password);
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

/** An air switch's CONNECT: the lock rules with the serial for the IMEI (username = client id = serial). */
async function authenticateAirSwitch(lookup: AirSwitchLookup, clientId: string | null | undefined, serial: string, password: Buffer): Promise<AuthResult> {
  if (clientId !== serial) return { ok: false, returnCode: CONNACK.IDENTIFIER_REJECTED, reason: 'client id must equal the serial' };
  const row = await lookup(serial);
  const secretOk = verifyDeviceSecret(password.toString('utf8'), row?.hash ?? DUMMY_HASH);
  if (!row || !secretOk) return { ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD, reason: row ? 'wrong secret' : 'unknown serial' };
  if (!row.enabled) return { ok: false, returnCode: CONNACK.NOT_AUTHORIZED, reason: 'air switch disabled' };
  return { ok: true, device: { kind: 'airSwitch', airSwitchId: row.id, tenantId: row.tenantId, serial } };
}

/** A device may publish only to its own uplink topic: `zg/{imei}/up` (locks), `as/{serial}/up` (air switches). */
export function mayPublish(device: GatewaySession, topic: string): boolean {
  return topic === (device.kind === 'airSwitch' ? protocol.airSwitchUplinkTopic(device.serial) : protocol.uplinkTopic(device.imei));
}

/** A device may subscribe only to its own downlink topic (no wildcards): `zg/{imei}/down`, `as/{serial}/down`. */
export function maySubscribe(device: GatewaySession, topicFilter: string): boolean {
  return topicFilter === (device.kind === 'airSwitch' ? protocol.airSwitchDownlinkTopic(device.serial) : protocol.downlinkTopic(device.imei));
}
