/**
 * 设备类型 (table `device_types`, owned by this module): list, options, add, edit, delete,
 * and the seed rows (contract LOCK_MODELS + LOCK_TYPE_SEEDS) of a data centre. Every function takes
 * the caller's transaction (tenant-scoped for the API). Errors: 409 CONFLICT for a duplicate model code,
 * a type in use being deleted or its model code changed (the message says how many devices use it);
 * 404 for an id not in the data centre.
 */
import {
  AIR_SWITCH_MODELS, BACKUP_CODE_POOL_DEFAULT, DEFAULT_HEARTBEAT_RANGE_S, type DeviceTypeInput, type DeviceTypeOption, type DeviceTypeRecord, LOCK_MODELS, LOCK_TYPE_SEEDS, LOCK_VENDOR, type Page,
} from '@iot/contract';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { airSwitches, deviceTypes, locks, tenants } from '../../db/schema.js';
import { containsPattern, iso } from '../../db/sql.js';
import { ApiError } from '../../http/api-error.js';
import { checkTypeEdit, electricalOf, ratingColumns } from './ratings.js';

/** Table columns of an entered type. */
function columnsOf(input: DeviceTypeInput) {
  return {
    kind: input.kind, model: input.model, vendor: LOCK_VENDOR, connectivity: input.connectivity, heartbeatIntervalS: input.heartbeatIntervalS,
    capacityUsers: input.capacity.users, capacityPasswords: input.capacity.passwords, capacityCards: input.capacity.cards,
    capacityFingerprints: input.capacity.fingerprints, passwordMinDigits: input.passwordDigits.min, passwordMaxDigits: input.passwordDigits.max,
    maxValidityDays: input.maxValidityDays, unlockMethods: input.unlockMethods, firmwareFamily: input.firmwareFamily,
    ...ratingColumns(input),
    weekDaySchedulesPerUser: input.weekDaySchedulesPerUser, yearDaySchedulesPerUser: input.yearDaySchedulesPerUser,
    holidaySchedules: input.holidaySchedules, credentialRulesSupport: input.credentialRulesSupport, backupCodePool: input.backupCodePool,
  };
}

/**
 * Inserts the seed types (ZG-NB100/200/300) for every data centre of `tenantIds` that has no device
 * type at all (owner connection or a transaction of those tenants); existing rows are left alone.
 */
export async function seedDeviceTypes(tx: Executor, tenantIds?: readonly number[]): Promise<void> {
  const ids = tenantIds ?? (await tx.select({ id: tenants.id }).from(tenants)).map((row) => row.id);
  const typed = new Set((await tx.selectDistinct({ tenantId: deviceTypes.tenantId }).from(deviceTypes)).map((row) => row.tenantId));
  const rows = ids.filter((id) => !typed.has(id)).flatMap((tenantId) => Object.keys(LOCK_MODELS).map((model) => seedLockTypeRow(tenantId, model)));
  if (rows.length > 0) await tx.insert(deviceTypes).values(rows).onConflictDoNothing();
  await seedAirSwitchTypes(tx, ids);
}

/** The seed row of lock model `model` (a LOCK_MODELS key) in data centre `tenantId`. */
function seedLockTypeRow(tenantId: number, model: string) {
  const rules = LOCK_MODELS[model] as (typeof LOCK_MODELS)[string];
  const seed = LOCK_TYPE_SEEDS[model];
  return {
    tenantId, ...columnsOf({
      kind: 'lock', model, connectivity: seed?.connectivity ?? 'nbiotSleeping', heartbeatIntervalS: seed?.heartbeatIntervalS ?? 300,
      heartbeatRangeS: seed?.heartbeatRangeS ?? { ...DEFAULT_HEARTBEAT_RANGE_S }, electrical: null,
      capacity: rules.capacity, passwordDigits: rules.passwordDigits, maxValidityDays: rules.maxValidityDays,
      unlockMethods: seed?.unlockMethods ?? [], firmwareFamily: seed?.firmwareFamily ?? '', ...rules.access, backupCodePool: BACKUP_CODE_POOL_DEFAULT,
    }),
  };
}

/**
 * Adds the seed type of lock model `model` (a LOCK_MODELS key) to every data centre of `tenantIds`
 * lacking it (owner connection): the demo's simulated locks of that model need it, also in a data
 * directory seeded before the model existed. An existing row of that model code is left alone.
 */
export async function ensureSeedLockType(tx: Executor, tenantIds: readonly number[], model: string): Promise<void> {
  if (tenantIds.length === 0) return;
  await tx.insert(deviceTypes).values(tenantIds.map((tenantId) => seedLockTypeRow(tenantId, model))).onConflictDoNothing();
}

/**
 * The air switch models (contract AIR_SWITCH_MODELS, kind airSwitch, always online, no
 * credential tables) for every data centre of `tenantIds` without an air switch type yet.
 */
async function seedAirSwitchTypes(tx: Executor, tenantIds: readonly number[]): Promise<void> {
  const typed = new Set((await tx.selectDistinct({ tenantId: deviceTypes.tenantId }).from(deviceTypes).where(eq(deviceTypes.kind, 'airSwitch'))).map((row) => row.tenantId));
  const rows = tenantIds.filter((id) => !typed.has(id)).flatMap((tenantId) => Object.entries(AIR_SWITCH_MODELS).map(([model, { telemetryIntervalS, ...electrical }]) => ({
    tenantId, ...columnsOf({
      kind: 'airSwitch', model, connectivity: 'alwaysOnline', heartbeatIntervalS: telemetryIntervalS,
      heartbeatRangeS: { min: telemetryIntervalS, max: 3600 }, electrical,
      capacity: { users: 0, passwords: 0, cards: 0, fingerprints: 0 }, passwordDigits: { min: 6, max: 6 }, maxValidityDays: 1, unlockMethods: [], firmwareFamily: 'ZG-AS',
      weekDaySchedulesPerUser: 0, yearDaySchedulesPerUser: 0, holidaySchedules: 0, credentialRulesSupport: ['single'], backupCodePool: 0,
    }),
  })));
  if (rows.length > 0) await tx.insert(deviceTypes).values(rows).onConflictDoNothing();
}

// Spelled out: inside a subquery drizzle would leave both sides' columns unqualified.
const deviceCount = sql<number>`((select count(*) from locks l where l.tenant_id = device_types.tenant_id and l.model = device_types.model)
  + (select count(*) from air_switches a where a.tenant_id = device_types.tenant_id and a.model = device_types.model))`.mapWith(Number);

/** A page of the data centre's types, ordered by model code, each with the number of devices using it. */
export async function listDeviceTypes(tx: Executor, q: { keyword?: string; kind?: string; current: number; size: number }): Promise<Page<DeviceTypeRecord>> {
  const conditions: SQL[] = [];
  if (q.keyword) conditions.push(or(ilike(deviceTypes.model, containsPattern(q.keyword)), ilike(deviceTypes.firmwareFamily, containsPattern(q.keyword))) as SQL);
  if (q.kind) conditions.push(eq(deviceTypes.kind, q.kind));
  const where = conditions.length ? and(...conditions) : undefined;
  const [total] = await tx.select({ n: count() }).from(deviceTypes).where(where);
  const rows = await tx.select({ row: deviceTypes, deviceCount }).from(deviceTypes).where(where)
    .orderBy(asc(deviceTypes.model)).limit(q.size).offset((q.current - 1) * q.size);
  const records = rows.map(({ row, deviceCount: used }) => ({
    id: row.id, kind: row.kind, model: row.model, vendor: row.vendor, connectivity: row.connectivity, heartbeatIntervalS: row.heartbeatIntervalS,
    capacity: { users: row.capacityUsers, passwords: row.capacityPasswords, cards: row.capacityCards, fingerprints: row.capacityFingerprints },
    passwordDigits: { min: row.passwordMinDigits, max: row.passwordMaxDigits }, maxValidityDays: row.maxValidityDays,
    unlockMethods: row.unlockMethods, firmwareFamily: row.firmwareFamily, deviceCount: used, createdAt: iso(row.createdAt) as string,
    heartbeatRangeS: { min: row.heartbeatMinS, max: row.heartbeatMaxS }, electrical: electricalOf(row),
    weekDaySchedulesPerUser: row.weekDaySchedulesPerUser, yearDaySchedulesPerUser: row.yearDaySchedulesPerUser,
    holidaySchedules: row.holidaySchedules, credentialRulesSupport: row.credentialRulesSupport, backupCodePool: row.backupCodePool,
  })) as DeviceTypeRecord[];
  return { records, total: total?.n ?? 0, current: q.current, size: q.size };
}

/** Every type of the data centre as a select shows it, ordered by model code. */
export async function deviceTypeOptions(tx: Executor): Promise<DeviceTypeOption[]> {
  return (await tx.select({ id: deviceTypes.id, kind: deviceTypes.kind, model: deviceTypes.model, connectivity: deviceTypes.connectivity })
    .from(deviceTypes).orderBy(asc(deviceTypes.model))) as DeviceTypeOption[];
}

/** The type named by `model` in the data centre, or undefined. */
export async function findDeviceType(tx: Executor, model: string) {
  const [row] = await tx.select().from(deviceTypes).where(eq(deviceTypes.model, model));
  return row;
}

const duplicate = (model: string) => new ApiError('CONFLICT', [{ field: 'body.model', message: {
  'zh-CN': `型号 ${model} 已存在`, 'en-US': `The model ${model} already exists`,
} }]);

const inUse = (count: number, zh: string, en: string) => new ApiError('CONFLICT', [{ field: 'body.id', message: {
  'zh-CN': `该设备类型正被 ${count} 台设备使用，${zh}`, 'en-US': `${count} device(s) use this type; ${en}`,
} }]);

/** Adds a type; 409 when its model code exists in the data centre. */
export async function addDeviceType(tx: Executor, tenantId: number, input: DeviceTypeInput): Promise<{ id: number }> {
  try {
    const [row] = await tx.insert(deviceTypes).values({ tenantId, ...columnsOf(input) }).returning({ id: deviceTypes.id });
    return { id: (row as { id: number }).id };
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.model);
    throw error;
  }
}

/** The type of `id` locked for update with its device count; 404 when not in the data centre. */
async function lockedType(tx: Executor, id: number) {
  const [row] = await tx.select({ model: deviceTypes.model }).from(deviceTypes).where(eq(deviceTypes.id, id)).for('update');
  if (!row) throw new ApiError('NOT_FOUND');
  const [used] = await tx.select({ n: count() }).from(locks).where(eq(locks.model, row.model));
  const [switches] = await tx.select({ n: count() }).from(airSwitches).where(eq(airSwitches.model, row.model));
  return { model: row.model, used: (used?.n ?? 0) + (switches?.n ?? 0) };
}

/** Edits a type; its model code may change only while no device uses it (409). */
export async function updateDeviceType(tx: Executor, id: number, input: DeviceTypeInput): Promise<null> {
  const type = await lockedType(tx, id);
  if (type.model !== input.model && type.used > 0) throw inUse(type.used, '型号不能修改', 'its model code cannot change');
  await checkTypeEdit(tx, type.model, input);
  try {
    await tx.update(deviceTypes).set(columnsOf(input)).where(eq(deviceTypes.id, id));
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicate(input.model);
    throw error;
  }
  return null;
}

/** Deletes a type no device uses; 409 naming the count otherwise. */
export async function deleteDeviceType(tx: Executor, id: number): Promise<null> {
  const type = await lockedType(tx, id);
  if (type.used > 0) throw inUse(type.used, '不能删除', 'it cannot be deleted');
  await tx.delete(deviceTypes).where(eq(deviceTypes.id, id));
  return null;
}
