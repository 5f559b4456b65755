/**
 * The commit of a lock import: the checked rows registered in the caller's tenant transaction (with the
 * call's system-log row, so all or nothing), CHUNK rows a statement, each with a new device secret
 * (stored as its SHA-256 in the device registry, returned once). 409 CONFLICT when an IMEI was registered meanwhile.
 * A statement carries one array-literal parameter per column (`unnest`), not one per cell: drizzle's
 * SQL building and pg's bind of 16 parameters a row held the event loop 50-60 ms per 200 rows under
 * load (bench/heavy-requests.ts); an array literal is one string join per column.
 */
import { LOCK_VENDOR, localized as h } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { hashDeviceSecret, newDeviceSecret } from '../../../crypto/device-secret.js';
import { numberArray, textArray } from '../../../db/array-literal.js';
import type { Tx } from '../../../db/client.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { rowsOf } from '../../../db/rows.js';
import { locks } from '../../../db/schema.js';
import { emitAll } from '../../../events/emit.js';
import { ApiError } from '../../../http/api-error.js';
import type { ExportColumn } from '../../../http/export.js';
import { registerDevices } from '../../device/registry.js';
import { findDeviceType } from '../../deviceType/catalogue.js';
import type { ImportLock } from './check.js';

/** A registered lock and its new secret, as the secrets file lists them. */
export interface IssuedSecret {
  imei: string;
  name: string;
  secret: string;
}

/** Columns of the secrets file. */
export const SECRET_COLUMNS: readonly ExportColumn<IssuedSecret>[] = [
  { header: h('IMEI', 'IMEI'), value: (r) => r.imei }, { header: h('名称', 'Name'), value: (r) => r.name },
  { header: h('设备密钥', 'Device secret'), value: (r) => r.secret },
];

/** Rows a statement (a few ms of the event loop: secrets, hashes, the array literals, the returned ids). */
const CHUNK = 500;
/** The column's default when the lock's device type is unknown (as an insert without the value would take). */
const DEFAULT_HEARTBEAT_S = Number(locks.heartbeatIntervalS.default);

/** Registers `valid` (checked by checkImport in this transaction), emitting `lock.changed` (added) for each; returns each lock's secret. */
export async function commitImport(tx: Tx, tenantId: number, valid: readonly ImportLock[]): Promise<IssuedSecret[]> {
  const types = new Map<string, NonNullable<Awaited<ReturnType<typeof findDeviceType>>>>();
  for (const model of new Set(valid.map((lock) => lock.model))) {
    const type = await findDeviceType(tx, model);
    if (type) types.set(model, type);
  }
  const issued: IssuedSecret[] = [];
  try {
    for (let start = 0; start < valid.length; start += CHUNK) {
      const chunk = valid.slice(start, start + CHUNK);
      const secrets = chunk.map(() => newDeviceSecret());
      const text = (pick: (lock: ImportLock, index: number) => string) => textArray(chunk.map(pick));
      const type = (lock: ImportLock) => types.get(lock.model);
      const result = await tx.execute(sql`
        insert into locks (tenant_id, imei, name, building, floor, room, model, vendor, firmware_version, heartbeat_interval_s,
          always_online, iccid, note, simulated)
        select ${tenantId}::int, imei, name, building, floor, room, model, vendor, '', heartbeat_interval_s, always_online, iccid, note, simulated
        from unnest(${text((l) => l.imei)}::text[], ${text((l) => l.name)}::text[], ${text((l) => l.building)}::text[],
          ${text((l) => l.floor)}::text[], ${text((l) => l.room)}::text[], ${text((l) => l.model)}::text[],
          ${text((l) => type(l)?.vendor ?? LOCK_VENDOR)}::text[], ${numberArray(chunk.map((l) => type(l)?.heartbeatIntervalS ?? DEFAULT_HEARTBEAT_S))}::int[],
          ${text((l) => String(type(l)?.connectivity === 'alwaysOnline'))}::bool[], ${text((l) => l.iccid)}::text[], ${text((l) => l.note)}::text[],
          ${text((l) => String(l.simulated))}::bool[])
          as v(imei, name, building, floor, room, model, vendor, heartbeat_interval_s, always_online, iccid, note, simulated)
        returning id, imei`);
      const rows = rowsOf<{ id: number; imei: string }>(result);
      const secretOf = new Map(chunk.map((lock, index) => [lock.imei, secrets[index] as string]));
      await registerDevices(tx, tenantId, 'lock', rows.map((row) => ({ id: row.id, clientId: row.imei, secretHash: hashDeviceSecret(secretOf.get(row.imei) as string) })));
      await emitAll(tx, rows.map((row) => ({ name: 'lock.changed', payload: { tenantId, lockId: row.id, imei: row.imei, change: 'added' } })));
      issued.push(...chunk.map((lock, index) => ({ imei: lock.imei, name: lock.name, secret: secrets[index] as string })));
    }
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError('CONFLICT', [{ field: 'body.file', message: h('有 IMEI 刚被登记，请重新校验文件', 'An IMEI was registered meanwhile; check the file again') }]);
  }
  return issued;
}
