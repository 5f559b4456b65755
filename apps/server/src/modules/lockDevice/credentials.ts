/**
 * Fresh device secrets for the in-process simulator's locks (the demo fleet's locks get new secrets at
 * every start, so no clear-text secret is ever stored), kept in the device registry (modules/device).
 */
import { deriveOfflineCodeKey } from '@iot/contract/offline-code';
import type { SimulatedDevice } from '@iot/simulator';
import { and, asc, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { deviceTypes, locks } from '../../db/schema.js';
import { issueDeviceSecrets } from '../device/registry.js';
import { lockRulesColumns, lockTypeJoin, rulesOf } from '../deviceType/rules.js';

/**
 * For every lock with `simulated = true and enabled = true`, not decommissioned and not among `except`
 * (IMEIs the simulator already drives), and among `only` when given: generates a new device secret, stores its SHA-256 in the
 * device registry (one multi-row UPDATE, in one transaction with the read, rows locked), and returns what the simulator
 * needs to connect (capacities from the lock's device type), ordered by lock id. Secrets issued earlier
 * stop working. Returns [] when there is no such lock. Rejects (changing nothing) when the database fails.
 * With the platform's `masterKey`, each lock also gets its offline-code key (what a real lock
 * is given at registration), derived as the server derives it.
 */
export async function issueSimulatorCredentials(database: Database, except: readonly string[] = [], only?: readonly string[], masterKey?: Buffer): Promise<SimulatedDevice[]> {
  if (only?.length === 0) return [];
  return database.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: locks.id,
        imei: locks.imei,
        tenantId: locks.tenantId,
        model: locks.model,
        firmwareVersion: locks.firmwareVersion,
        heartbeatIntervalS: locks.heartbeatIntervalS,
        lastSeq: locks.lastSeq,
        battery: locks.battery,
        alwaysOnline: locks.alwaysOnline,
        ...lockRulesColumns,
      })
      .from(locks)
      .leftJoin(deviceTypes, lockTypeJoin)
      .where(and(eq(locks.simulated, true), eq(locks.enabled, true), isNull(locks.decommissionedAt),
        except.length > 0 ? notInArray(locks.imei, [...except]) : undefined, only ? inArray(locks.imei, [...only]) : undefined))
      .orderBy(asc(locks.id))
      .for('update', { of: locks });
    if (rows.length === 0) return [];
    const secrets = await issueDeviceSecrets(tx, 'lock', rows.map((row) => row.id));
    return rows.map((row, index) => {
      const rules = rulesOf(row);
      return {
        imei: row.imei, tenantId: row.tenantId, model: row.model, firmwareVersion: row.firmwareVersion, heartbeatIntervalS: row.heartbeatIntervalS,
        lastSeq: row.lastSeq, battery: row.battery, alwaysOnline: row.alwaysOnline, capacity: rules.capacity, access: rules.access, secret: secrets[index] as string,
        ...(masterKey ? { offlineCodeKey: deriveOfflineCodeKey(masterKey, row.id, row.imei).toString('hex') } : {}),
      };
    });
  });
}
