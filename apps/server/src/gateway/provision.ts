/**
 * Credentials for the in-process simulator: the demo fleet's locks get fresh secrets at every start,
 * so no clear-text secret is ever stored.
 */
import type { SimulatedDevice } from '@iot/simulator';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { locks } from '../db/schema.js';
import { hashDeviceSecret, newDeviceSecret } from './device-secret.js';

/**
 * For every lock with `simulated = true and enabled = true`: generates a new device secret, stores
 * its SHA-256 (one multi-row UPDATE, in one transaction with the read, rows locked), and returns what
 * the simulator needs to connect, ordered by lock id. Secrets issued earlier stop working. Returns []
 * when there is no such lock. Rejects (changing nothing) when the database fails.
 */
export async function issueSimulatorCredentials(database: Database): Promise<SimulatedDevice[]> {
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
      })
      .from(locks)
      .where(and(eq(locks.simulated, true), eq(locks.enabled, true)))
      .orderBy(asc(locks.id))
      .for('update');
    if (rows.length === 0) return [];
    const secrets = rows.map(() => newDeviceSecret());
    await tx.execute(sql`
      update locks set device_secret_hash = v.hash
      from unnest(${sql.param(rows.map((row) => row.id))}::int[], ${sql.param(secrets.map(hashDeviceSecret))}::text[]) as v(id, hash)
      where locks.id = v.id`);
    return rows.map(({ id: _id, ...row }, index) => ({ ...row, secret: secrets[index] as string }));
  });
}
