/**
 * Locks for the load generator, provisioned set-based as bench/fleet.ts fills its registry: one
 * `insert ... select from generate_series` (50,000 locks in a few seconds), each with its own
 * broker password (messages.ts loadgenSecret) stored as the gateway stores secrets, SHA-256 hex
 * (crypto/device-secret.ts), computed by PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { provisionLocks } from '../../apps/server/integration/devices.js';
import type { Database } from '../../apps/server/src/db/client.js';

/** IMEIs of generated locks: 15 digits from this base, clear of the seed's simulated ones. */
const IMEI_BASE = 868_000_000_000_000;

/** The IMEI of generated lock `index` (0-based). */
export const loadgenImei = (index: number): string => String(IMEI_BASE + index + 1);

/**
 * Migrates `database`, seeds the demo accounts (no simulated locks) and inserts `count` locks of
 * tenant 100 reporting every `heartbeatS` s. Returns their IMEIs in index order. Rejects when the
 * database fails or the locks exist already.
 */
export async function provisionLoadgenLocks(database: Database, count: number, heartbeatS: number): Promise<string[]> {
  await provisionLocks(database, 0);
  await database.system.execute(sql`
    with added as (
      insert into locks (tenant_id, imei, name, building, floor, room, model, firmware_version, heartbeat_interval_s)
      select 100, (${IMEI_BASE}::bigint + g)::text, 'Loadgen ' || g, 'L' || lpad((g / 2000)::text, 2, '0'), 'F' || lpad((g / 100 % 20)::text, 2, '0'),
        'R' || lpad((g % 100)::text, 3, '0'), 'ZG-NB200', 'V1.2.3', ${heartbeatS}
      from generate_series(1, ${count}) as g
      returning id, imei)
    insert into devices (tenant_id, device_kind, lock_id, client_id, secret_hash)
    select 100, 'lock', id, imei, encode(sha256(convert_to('loadgen-' || imei, 'UTF8')), 'hex') from added`);
  await database.system.execute(sql`analyze locks`);
  return Array.from({ length: count }, (_, i) => loadgenImei(i));
}
