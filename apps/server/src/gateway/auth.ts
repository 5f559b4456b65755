/**
 * Device authentication and topic rules (docs/protocol.md "Authentication").
 * Transport-neutral: the embedded broker maps the results onto aedes' hooks.
 */
import type { DeviceKind } from '@iot/contract';
import { hashDeviceSecret, verifyDeviceSecret } from '../crypto/device-secret.js';
import type { Database } from '../db/client.js';
import { findDeviceCredentials } from '../modules/device/credentials.js';
import { GATEWAY_KINDS, type DeviceCredentials, type GatewaySession, kindOf } from './device-kinds.js';

/** MQTT 3.1.1 CONNACK return codes used for refusals. */
export const CONNACK = { IDENTIFIER_REJECTED: 2, BAD_USERNAME_OR_PASSWORD: 4, NOT_AUTHORIZED: 5 } as const;

export type AuthResult =
  | { ok: true; device: GatewaySession }
  | { ok: false; returnCode: (typeof CONNACK)[keyof typeof CONNACK]; reason: string };

/** Compared against when the IMEI is unknown, so both refusals cost the same. */
const DUMMY_HASH = hashDeviceSecret('no such device');
const MAX_SECRET_BYTES = 256;

/** Finds a kind's devices by name (IMEI, serial); undefined when unknown. */
export type DeviceLookup = (key: string) => Promise<DeviceCredentials | undefined>;
/** The lookup of each kind the gateway serves; a kind without one is not served. */
export type DeviceLookups = { [K in DeviceKind]?: DeviceLookup };

/**
 * A lookup that coalesces the calls arriving in the same event-loop turn into one `where key in (...)`
 * query (`find`, at most 1,000 keys each) on the owner connection, so a reconnect storm of thousands of
 * devices costs a few queries instead of thousands. Nothing is cached: every call reads the current
 * row. Rejects when the database fails.
 */
function coalescedLookup<R extends DeviceCredentials>(find: (keys: string[]) => Promise<R[]>, keyOf: (row: R) => string): (key: string) => Promise<R | undefined> {
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

/** The coalescing lookup (see coalescedLookup) of every kind in device-kinds.ts over the device registry of `database`. */
export function createDeviceLookups(database: Database): DeviceLookups {
  return Object.fromEntries(GATEWAY_KINDS.map((kind) => [kind.kind, coalescedLookup((keys) => findDeviceCredentials(database, kind.kind, keys), (row) => row.key)]));
}

/**
 * Checks a device's CONNECT credentials: username = the device's name (a lock's 15-digit IMEI, an air
 * switch's serial: the first kind whose identity schema accepts it), password = device secret, client
 * id = the name. Reads the device through its kind's lookup on every call (no cache, so a rotated
 * secret or a disabled device takes effect at the next connect). Resolves with the session, or with a
 * refusal carrying the CONNACK code: 5 anonymous or disabled device, 2 client id differs from the name,
 * 4 malformed name, unknown name or wrong secret (one code for both, not to reveal which devices exist).
 * Rejects only when the database fails.
 */
export async function authenticateDevice(
  lookups: DeviceLookups,
  clientId: string | null | undefined,
  username: string | undefined,
  password: Buffer | undefined,
): Promise<AuthResult> {
  if (!username || !password || password.length === 0) {
    return { ok: false, returnCode: CONNACK.NOT_AUTHORIZED, reason: 'anonymous' };
  }
  const kind = GATEWAY_KINDS.find((candidate) => lookups[candidate.kind] && candidate.identity.schema.safeParse(username).success);
  const lookup = kind && lookups[kind.kind];
  if (!kind || !lookup || password.length > MAX_SECRET_BYTES) {
    return { ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD, reason: 'malformed credentials' };
  }
  if (clientId !== username) { // the name schemas admit no MQTT wildcard or level separator
    return { ok: false, returnCode: CONNACK.IDENTIFIER_REJECTED, reason: `client id must equal the ${kind.identity.label}` };
  }
  const row = await lookup(username);
  const secretOk = verifyDeviceSecret(password.toString('utf8'), row?.hash ?? DUMMY_HASH);
  if (!row || !secretOk) {
    return { ok: false, returnCode: CONNACK.BAD_USERNAME_OR_PASSWORD, reason: row ? 'wrong secret' : `unknown ${kind.identity.label}` };
  }
  if (!row.enabled) return { ok: false, returnCode: CONNACK.NOT_AUTHORIZED, reason: `${kind.identity.noun} disabled` };
  return { ok: true, device: kind.session(row) };
}

/** A device may publish only to its own uplink topic: `zg/{imei}/up` (locks), `as/{serial}/up` (air switches), ... */
export function mayPublish(device: GatewaySession, topic: string): boolean {
  const kind = kindOf(device);
  return topic === kind.topics.uplink(kind.keyOf(device));
}

/** A device may subscribe only to its own downlink topic (no wildcards): `zg/{imei}/down`, `as/{serial}/down`, ... */
export function maySubscribe(device: GatewaySession, topicFilter: string): boolean {
  const kind = kindOf(device);
  return topicFilter === kind.topics.downlink(kind.keyOf(device));
}
