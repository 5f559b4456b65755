/**
 * The lock registry (门锁信息; table `locks`, owned by this module): register, edit, enable /
 * disable, decommission, release a decommissioned lock's IMEI and reset a device secret. Every
 * function runs in the caller's tenant transaction. A device secret is returned once and stored only
 * as its SHA-256, in the device registry (modules/device), where releasing an IMEI removes the lock's
 * registration. Each change emits `lock.changed` (or `lock.secretReset`; docs/events.md) with its
 * transaction: the gateway drops the MQTT session of a disabled, retired or reset lock, on whichever
 * instance holds it. Errors: 400 for a model the data centre has no device type of; 409 CONFLICT for an
 * IMEI already registered (in any data centre, without saying which); 404 for an id not in the tenant.
 */
import type { EventMap, LockSecret, lockFields } from '@iot/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { locks } from '../../db/schema.js';
import { emit } from '../../events/emit.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { registerDevice, resetDeviceSecret, unregisterDevice } from '../device/registry.js';
import { findDeviceType } from '../deviceType/catalogue.js';

type LockFields = z.output<typeof lockFields>;

/** The device type named by `model`; 400 on body.model when the data centre has none, or it is not a lock's (an air switch model). */
async function typeOf(tx: Tx, model: string) {
  const type = await findDeviceType(tx, model);
  if (!type) throw fieldError('body.model', `设备类型 ${model} 不存在`, `There is no device type ${model}`);
  if (type.kind !== 'lock') throw fieldError('body.model', `${model} 不是门锁的设备类型`, `${model} is not a lock device type`);
  return type;
}

const imeiTaken = () => new ApiError('CONFLICT', [{ field: 'body.imei', message: {
  'zh-CN': '该 IMEI 已登记，不能重复登记', 'en-US': 'This IMEI is already registered',
} }]);

/** Registers a lock; returns its id and its new device secret (shown once). */
export async function registerLock(tx: Tx, tenantId: number, input: LockFields & { imei: string }): Promise<LockSecret> {
  const type = await typeOf(tx, input.model);
  try {
    const [row] = await tx.insert(locks).values({
      tenantId, imei: input.imei, name: input.name, building: input.building, floor: input.floor, room: input.room,
      model: type.model, vendor: type.vendor, firmwareVersion: '', heartbeatIntervalS: type.heartbeatIntervalS,
      alwaysOnline: type.connectivity === 'alwaysOnline', iccid: input.iccid, note: input.note, simulated: input.simulated,
    }).returning({ id: locks.id });
    const id = (row as { id: number }).id;
    const secret = await registerDevice(tx, tenantId, { kind: 'lock', id }, input.imei);
    await emit(tx, 'lock.changed', { tenantId, lockId: id, imei: input.imei, change: 'added' });
    return { id, imei: input.imei, secret };
  } catch (error) {
    if (isUniqueViolation(error)) throw imeiTaken();
    throw error;
  }
}

/** The lock of `id` locked for update; 404 when not in the tenant (or its IMEI was released). */
async function lockedLock(tx: Tx, id: number) {
  const [row] = await tx.select({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei, model: locks.model, decommissionedAt: locks.decommissionedAt })
    .from(locks).where(and(eq(locks.id, id), isNull(locks.imeiReleasedAt))).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Emits `change` of `lock` with the transaction. */
const changed = (tx: Tx, lock: { id: number; tenantId: number; imei: string }, change: EventMap['lock.changed']['change']) =>
  emit(tx, 'lock.changed', { tenantId: lock.tenantId, lockId: lock.id, imei: lock.imei, change });

/** Edits a lock's name, type, location, ICCID, note and simulated flag (the IMEI never changes). */
export async function updateLock(tx: Tx, id: number, input: LockFields): Promise<null> {
  const lock = await lockedLock(tx, id);
  const type = lock.model === input.model ? undefined : await typeOf(tx, input.model);
  await tx.update(locks).set({
    name: input.name, building: input.building, floor: input.floor, room: input.room, iccid: input.iccid, note: input.note,
    simulated: input.simulated, ...(type ? { model: type.model, alwaysOnline: type.connectivity === 'alwaysOnline' } : {}),
  }).where(eq(locks.id, id));
  await changed(tx, lock, 'updated');
  return null;
}

const retired = () => new ApiError('CONFLICT', [{ field: 'body.id', message: { 'zh-CN': '该门锁已退役', 'en-US': 'This lock is decommissioned' } }]);

/** Enables or disables a lock (a disabled lock is refused at its next connect); returns its IMEI. */
export async function setLockEnabled(tx: Tx, id: number, enabled: boolean): Promise<string> {
  const lock = await lockedLock(tx, id);
  if (lock.decommissionedAt) throw retired();
  await tx.update(locks).set({ enabled }).where(eq(locks.id, id));
  await changed(tx, lock, enabled ? 'enabled' : 'disabled');
  return lock.imei;
}

/** Retires a lock: disabled for good, history kept, IMEI still reserved; returns its IMEI. */
export async function decommissionLock(tx: Tx, id: number): Promise<string> {
  const lock = await lockedLock(tx, id);
  if (lock.decommissionedAt) throw retired();
  await tx.update(locks).set({ enabled: false, decommissionedAt: new Date() }).where(eq(locks.id, id));
  await changed(tx, lock, 'decommissioned');
  return lock.imei;
}

/** Frees a decommissioned lock's IMEI for a new registration (409 unless decommissioned). */
export async function releaseImei(tx: Tx, id: number): Promise<null> {
  const lock = await lockedLock(tx, id);
  if (!lock.decommissionedAt) {
    throw new ApiError('CONFLICT', [{ field: 'body.id', message: { 'zh-CN': '只能释放已退役门锁的 IMEI', 'en-US': 'Only a decommissioned lock\'s IMEI can be released' } }]);
  }
  await tx.update(locks).set({ imeiReleasedAt: new Date() }).where(eq(locks.id, id));
  await unregisterDevice(tx, { kind: 'lock', id });
  await changed(tx, lock, 'imeiReleased');
  return null;
}

/** Issues a new device secret (the old one stops working); returns it once. */
export async function resetSecret(tx: Tx, id: number): Promise<LockSecret> {
  const lock = await lockedLock(tx, id);
  if (lock.decommissionedAt) throw retired();
  const secret = await resetDeviceSecret(tx, { kind: 'lock', id });
  await emit(tx, 'lock.secretReset', { tenantId: lock.tenantId, lockId: lock.id, imei: lock.imei }); // never the secret
  return { id: lock.id, imei: lock.imei, secret };
}
