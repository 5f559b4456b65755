/**
 * The gateway's credential lookup over the device registry (table `devices`): what authenticating a
 * device needs, found by its MQTT client id. Reads on the owner connection (all data centres). Whether
 * the device is enabled is its kind's own state, read from its row: a lock enabled and not
 * decommissioned, an air switch enabled.
 */
import type { DeviceKind } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { textArray } from '../../db/array-literal.js';
import { rowsOf } from '../../db/rows.js';

/** A registered device's credentials (hash: SHA-256 hex of its device secret; id: its kind's row id). */
export interface DeviceCredentials {
  /** The client id: IMEI, serial. */
  key: string;
  id: number;
  tenantId: number;
  hash: string;
  /** May connect: enabled (and, for a lock, not decommissioned). */
  enabled: boolean;
}

/** The registered devices of `kind` among `clientIds`; unknown ones are absent. Rejects when the database fails. */
export async function findDeviceCredentials(database: Database, kind: DeviceKind, clientIds: readonly string[]): Promise<DeviceCredentials[]> {
  if (clientIds.length === 0) return [];
  const result = await database.system.execute(sql`
    select d.client_id as key, coalesce(d.lock_id, d.air_switch_id) as id, d.tenant_id as "tenantId", d.secret_hash as hash,
      coalesce(l.enabled and l.decommissioned_at is null, a.enabled, false) as enabled
    from devices d
    left join locks l on l.id = d.lock_id
    left join air_switches a on a.id = d.air_switch_id
    where d.device_kind = ${kind} and d.client_id = any(${textArray(clientIds)}::text[])`);
  return rowsOf<DeviceCredentials>(result).map((row) => ({ ...row, id: Number(row.id), tenantId: Number(row.tenantId) }));
}
