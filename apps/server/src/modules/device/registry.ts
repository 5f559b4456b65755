/**
 * The device registry (table `devices`, owned by this module; db/schema-devices.ts): registering a
 * device of any kind under its MQTT client id, and its device secrets. A secret is returned once and
 * stored only as its SHA-256. Every function runs in the caller's transaction; the kind modules
 * (lockDevice, airSwitch) call it when they create, release or re-key a device, in the same transaction
 * as their own row. Rejects with the database's unique violation when the client id is registered
 * already (any kind, any data centre): the caller maps it to its 409.
 */
import type { DeviceKind } from '@iot/contract';
import { and, eq, sql } from 'drizzle-orm';
import { hashDeviceSecret, newDeviceSecret } from '../../crypto/device-secret.js';
import type { Tx } from '../../db/client.js';
import { numberArray, textArray } from '../../db/array-literal.js';
import { devices } from '../../db/schema.js';

/** A device by its kind and its id in the kind's own table (locks.id, air_switches.id). */
export interface DeviceRef {
  kind: DeviceKind;
  id: number;
}

/** The column naming the device of each kind. */
const DEVICE_COLUMN = { lock: devices.lockId, airSwitch: devices.airSwitchId } as const;
/** That column in raw SQL (unqualified: the insert's target list, the update's `devices.` prefix). */
const deviceColumn = (kind: DeviceKind) => sql.identifier(DEVICE_COLUMN[kind].name);

const whereDevice = (device: DeviceRef) => and(eq(devices.deviceKind, device.kind), eq(DEVICE_COLUMN[device.kind], device.id));

/**
 * Registers devices of one `kind` of data centre `tenantId` in one statement: each with its kind's id,
 * its client id (which must be the device row's IMEI or serial, checked by the foreign key) and the
 * SHA-256 of a secret the caller issued (`secretHash`, hex).
 */
export async function registerDevices(tx: Tx, tenantId: number, kind: DeviceKind, rows: readonly { id: number; clientId: string; secretHash: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`
    insert into devices (tenant_id, device_kind, ${deviceColumn(kind)}, client_id, secret_hash)
    select ${tenantId}::int, ${kind}, v.id, v.client_id, v.secret_hash
    from unnest(${numberArray(rows.map((row) => row.id))}::int[], ${textArray(rows.map((row) => row.clientId))}::text[],
      ${textArray(rows.map((row) => row.secretHash))}::text[]) as v(id, client_id, secret_hash)`);
}

/** Registers one device under `clientId`; returns its new device secret (shown once). */
export async function registerDevice(tx: Tx, tenantId: number, device: DeviceRef, clientId: string): Promise<string> {
  const secret = newDeviceSecret();
  await registerDevices(tx, tenantId, device.kind, [{ id: device.id, clientId, secretHash: hashDeviceSecret(secret) }]);
  return secret;
}

/**
 * New device secrets for the devices of `kind` with ids `targets`, one multi-row UPDATE (the earlier
 * secrets stop working); returns the secrets in the order of `targets`. Callers pass registered
 * devices only (an unregistered one changes nothing, and its secret opens nothing).
 */
export async function issueDeviceSecrets(tx: Tx, kind: DeviceKind, targets: readonly number[]): Promise<string[]> {
  if (targets.length === 0) return [];
  const secrets = targets.map(() => newDeviceSecret());
  await tx.execute(sql`
    update devices set secret_hash = v.secret_hash
    from unnest(${numberArray(targets)}::int[], ${textArray(secrets.map(hashDeviceSecret))}::text[]) as v(id, secret_hash)
    where devices.device_kind = ${kind} and devices.${deviceColumn(kind)} = v.id`);
  return secrets;
}

/** Issues a new device secret for `device` (the old one stops working); returns it once. */
export async function resetDeviceSecret(tx: Tx, device: DeviceRef): Promise<string> {
  const [secret] = await issueDeviceSecrets(tx, device.kind, [device.id]);
  return secret as string;
}

/** Removes `device`'s registration: it can no longer connect, and its client id is free for a new device. */
export async function unregisterDevice(tx: Tx, device: DeviceRef): Promise<void> {
  await tx.delete(devices).where(whereDevice(device));
}
