/**
 * What a system-log row says about the object a change was made to (系统日志 showed "49" and
 * raw JSON): the object's name, and for an edit the fields that changed, before -> after. The object
 * comes from the endpoint's AuditAction: its first target field present in the body, `id` of the
 * action's `entity`, or a field that says what it is (lockId, imei, accountId, groupId, productId,
 * packageId). It is read (tenant transaction, row-level security) before and after the change, so a
 * deleted object still has its name. Only the non-secret fields listed below are compared.
 */
import type { AuditAction, AuditEntity } from '@iot/contract';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import {
  accounts, airSwitches, tenants, commands, credentials, customerCodes, deviceTypes, firmwarePackages, firmwareRollouts, lockGroups, locks, lockUsers, products, roles, stays,
} from '../../db/schema.js';

interface EntitySpec {
  table: PgTable;
  id: PgColumn;
  /** The object's name as people know it. */
  name: SQL;
  /** Fields compared before and after (record field name -> column). */
  fields: Record<string, PgColumn | SQL>;
}

const named = (column: PgColumn, fallback: PgColumn | SQL) => sql<string>`coalesce(nullif(${column}, ''), ${fallback}::text)`;

const ENTITIES: Record<AuditEntity, EntitySpec> = {
  tenant: { table: tenants, id: tenants.id, name: sql<string>`${tenants.name}`, fields: { timeZone: tenants.timeZone, stayBufferBeforeMinutes: tenants.stayBufferBeforeMinutes, stayBufferAfterMinutes: tenants.stayBufferAfterMinutes, stayAutoBackupCode: tenants.stayAutoBackupCode } },
  lock: {
    table: locks, id: locks.id, name: named(locks.name, locks.imei),
    fields: { name: locks.name, building: locks.building, floor: locks.floor, room: locks.room, model: locks.model, iccid: locks.iccid, note: locks.note, enabled: locks.enabled, simulated: locks.simulated },
  },
  lockUser: {
    table: lockUsers, id: lockUsers.id, name: sql<string>`${lockUsers.name}`,
    fields: { name: lockUsers.name, phone: lockUsers.phone, validFrom: lockUsers.validFrom, validTo: lockUsers.validTo, status: lockUsers.status },
  },
  credential: {
    table: credentials, id: credentials.id,
    name: sql<string>`concat_ws(' ', (select u.name from ${lockUsers} u where u.id = ${credentials.lockUserId}), '#' || ${credentials.slot})`,
    fields: { validFrom: credentials.validFrom, validTo: credentials.validTo },
  },
  role: { table: roles, id: roles.id, name: sql<string>`${roles.name}`, fields: { name: roles.name, description: roles.description, authorities: roles.authorities } },
  account: { table: accounts, id: accounts.id, name: sql<string>`${accounts.username}`, fields: { enabled: accounts.enabled } },
  group: { table: lockGroups, id: lockGroups.id, name: sql<string>`${lockGroups.name}`, fields: { name: lockGroups.name, description: lockGroups.description } },
  deviceType: {
    table: deviceTypes, id: deviceTypes.id, name: sql<string>`${deviceTypes.model}`,
    fields: {
      model: deviceTypes.model, connectivity: deviceTypes.connectivity, heartbeatIntervalS: deviceTypes.heartbeatIntervalS, maxValidityDays: deviceTypes.maxValidityDays,
      capacityUsers: deviceTypes.capacityUsers, capacityPasswords: deviceTypes.capacityPasswords, capacityCards: deviceTypes.capacityCards, capacityFingerprints: deviceTypes.capacityFingerprints,
    },
  },
  // A version as the console shows it (V + canonical, contract formatVersion): "ZG-NB100 V2.1.0".
  firmwarePackage: { table: firmwarePackages, id: firmwarePackages.id, name: sql<string>`${firmwarePackages.model} || ' V' || ${firmwarePackages.version}`, fields: {} },
  rollout: {
    table: firmwareRollouts, id: firmwareRollouts.id, name: named(firmwareRollouts.name, sql`${firmwareRollouts.model} || ' V' || ${firmwareRollouts.version}`),
    fields: { state: firmwareRollouts.state },
  },
  command: { table: commands, id: commands.id, name: sql<string>`${commands.type} || ' #' || ${commands.id}`, fields: { state: commands.state } },
  airSwitch: { table: airSwitches, id: airSwitches.id, name: named(airSwitches.name, airSwitches.serial), fields: { name: airSwitches.name, location: airSwitches.location, enabled: airSwitches.enabled } },
  product: {
    table: products, id: products.id, name: sql<string>`${products.nameZh}`,
    fields: { nameZh: products.nameZh, nameEn: products.nameEn, priceFen: products.priceFen, lockCount: products.lockCount, months: products.months, enabled: products.enabled },
  },
  // A stay by its room and number ("A-3-301 #12"); guests (names, mobiles) are not compared.
  stay: {
    table: stays, id: stays.id, name: sql<string>`concat_ws('-', nullif(${stays.building}, ''), nullif(${stays.floor}, ''), ${stays.room}) || ' #' || ${stays.id}`,
    fields: {
      kind: stays.kind, state: stays.state, checkInAt: stays.checkInAt, checkOutAt: stays.checkOutAt,
      bufferBeforeMinutes: stays.bufferBeforeMinutes, bufferAfterMinutes: stays.bufferAfterMinutes, reference: stays.reference,
    },
  },
  customerCode: { table: customerCodes, id: customerCodes.id, name: sql<string>`${customerCodes.code}`, fields: { name: customerCodes.name, contact: customerCodes.contact, enabled: customerCodes.enabled } },
};

/** Body fields that name an object of a known kind whatever the endpoint. */
const FIELD_ENTITIES: Record<string, AuditEntity> = {
  lockId: 'lock', accountId: 'account', groupId: 'group', productId: 'product', packageId: 'firmwarePackage',
};

/** The object a change is made to: its kind and how to find it. */
export interface AuditTarget { entity: AuditEntity; id?: number; imei?: string }

/**
 * The object named by `body` under `action` (see the module comment; `tenant`: the request's data centre
 * `tenantId`), or undefined when the target is a name already (username, model) or absent.
 */
export function auditTargetOf(action: AuditAction, body: unknown, tenantId: number): AuditTarget | undefined {
  if (action.entity === 'tenant') return { entity: 'tenant', id: tenantId };
  if (!body || typeof body !== 'object') return undefined;
  const values = body as Record<string, unknown>;
  const field = action.target?.find((name) => values[name] !== undefined && values[name] !== null);
  if (!field) return undefined;
  const value = values[field];
  if (field === 'imei' && typeof value === 'string') return { entity: 'lock', imei: value };
  const entity = field === 'id' ? action.entity : FIELD_ENTITIES[field];
  return entity && typeof value === 'number' && Number.isInteger(value) ? { entity, id: value } : undefined;
}

/** The object as it is now: its name and compared fields (dates as ISO text), or undefined when it does not exist (yet, or any more). */
export async function readTarget(tx: Executor, target: AuditTarget): Promise<{ name: string; fields: Record<string, unknown> } | undefined> {
  const spec = ENTITIES[target.entity];
  const where = target.imei !== undefined ? eq(locks.imei, target.imei) : eq(spec.id, target.id as number);
  // The name under a key no compared field has (a lock's `name` field is compared too).
  const [row] = await tx.select({ ...spec.fields, objectName: spec.name }).from(spec.table).where(where).limit(1) as Record<string, unknown>[];
  if (!row) return undefined;
  const { objectName: name, ...fields } = row;
  const plain = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
  return { name: String(name ?? ''), fields: plain };
}

/** What the row records: the object's name (after the change, else before), and the fields whose value changed, `{ field: [before, after] }`. */
export function describeChange(before: Awaited<ReturnType<typeof readTarget>>, after: Awaited<ReturnType<typeof readTarget>>): { targetName: string | null; changes: Record<string, [unknown, unknown]> | null } {
  const targetName = (after ?? before)?.name || null;
  if (!before || !after) return { targetName, changes: null };
  const changed = Object.keys(after.fields).filter((key) => JSON.stringify(before.fields[key]) !== JSON.stringify(after.fields[key]));
  const pairs = changed.map((key): [string, [unknown, unknown]] => [key, [before.fields[key] ?? null, after.fields[key] ?? null]]);
  return { targetName, changes: pairs.length ? Object.fromEntries(pairs) : null };
}
