/**
 * The commit of a lock import: the checked rows registered in the caller's tenant transaction (with the
 * call's system-log row, so all or nothing), CHUNK rows a statement, each with a new device secret
 * (stored as its SHA-256, returned once). 409 CONFLICT when an IMEI was registered meanwhile.
 */
import { LOCK_VENDOR, localized as h } from '@iot/contract';
import { hashDeviceSecret, newDeviceSecret } from '../../../crypto/device-secret.js';
import type { Tx } from '../../../db/client.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { locks } from '../../../db/schema.js';
import { emitAll } from '../../../events/emit.js';
import { ApiError } from '../../../http/api-error.js';
import type { ExportColumn } from '../../../http/export.js';
import { findDeviceType } from '../../deviceType/service.js';
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

/**
 * Rows a statement. Building and sending a statement is synchronous (drizzle's SQL and pg's bind of
 * 16 parameters a row): at 1,000 rows it held the event loop 100-270 ms at a time while a 10,000-row
 * import ran (bench/heavy-requests.ts); at 200 each piece is a fifth of that.
 */
const CHUNK = 200;

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
      const rows = await tx.insert(locks).values(chunk.map((lock, index) => {
        const type = types.get(lock.model);
        return {
          tenantId, imei: lock.imei, name: lock.name, building: lock.building, floor: lock.floor, room: lock.room,
          model: lock.model, vendor: type?.vendor ?? LOCK_VENDOR, firmwareVersion: '', heartbeatIntervalS: type?.heartbeatIntervalS,
          alwaysOnline: type?.connectivity === 'alwaysOnline', iccid: lock.iccid, note: lock.note, simulated: lock.simulated,
          deviceSecretHash: hashDeviceSecret(secrets[index] as string),
        };
      })).returning({ id: locks.id, imei: locks.imei });
      await emitAll(tx, rows.map((row) => ({ name: 'lock.changed', payload: { tenantId, lockId: row.id, imei: row.imei, change: 'added' } })));
      issued.push(...chunk.map((lock, index) => ({ imei: lock.imei, name: lock.name, secret: secrets[index] as string })));
    }
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError('CONFLICT', [{ field: 'body.file', message: h('有 IMEI 刚被登记，请重新校验文件', 'An IMEI was registered meanwhile; check the file again') }]);
  }
  return issued;
}
