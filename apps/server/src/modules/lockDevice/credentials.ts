/**
 * Device credentials on the lock rows (table `locks`, owned by this module): the lookup the gateway
 * authenticates devices with, and fresh secrets for the in-process simulator (the demo fleet's locks
 * get new secrets at every start, so no clear-text secret is ever stored).
 */
import { deriveOfflineCodeKey } from '@iot/contract/offline-code';
import type { SimulatedDevice } from '@iot/simulator';
import { and, asc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import { hashDeviceSecret, newDeviceSecret } from '../../crypto/device-secret.js';
import type { Database } from '../../db/client.js';
import { deviceTypes, locks } from '../../db/schema.js';
import { lockRulesColumns, lockTypeJoin, rulesOf } from '../deviceType/rules.js';

/** What authenticating a device needs of its lock row (hash: SHA-256 hex of the device secret). */
export interface LockCredentials {
  imei: string;
  id: number;
  tenantId: number;
  hash: string;
  enabled: boolean;
}

/** The credentials of the locks of `imeis` (owner connection, all tenants); unknown IMEIs are absent. */
export async function findLockCredentials(database: Database, imeis: readonly string[]): Promise<LockCredentials[]> {
  if (imeis.length === 0) return [];
  return database.system
    .select({
      imei: locks.imei, id: locks.id, tenantId: locks.tenantId, hash: locks.deviceSecretHash,
      enabled: sql<boolean>`${locks.enabled} and ${locks.decommissionedAt} is null`,
    })
    .from(locks)
    .where(and(inArray(locks.imei, [...imeis]), isNull(locks.imeiReleasedAt)));
}

/**
 * For every lock with `simulated = true and enabled = true`, not decommissioned and not among `except`
 * (IMEIs the simulator already drives), and among `only` when given: generates a new device secret, stores its SHA-256 (one
 * multi-row UPDATE, in one transaction with the read, rows locked), and returns what the simulator
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
    const secrets = rows.map(() => newDeviceSecret());
    await tx.execute(sql`
      update locks set device_secret_hash = v.hash
      from unnest(${sql.param(rows.map((row) => row.id))}::int[], ${sql.param(secrets.map(hashDeviceSecret))}::text[]) as v(id, hash)
      where locks.id = v.id`);
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
