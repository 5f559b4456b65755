/**
 * Migration 0069 (one device registry: every device's MQTT client id and secret hash move into
 * `devices`) on a filled database: a database migrated up to 0068 gets 300 locks of two tenants
 * (enabled, disabled, decommissioned, released, and a newer lock holding a released IMEI) and 120 air
 * switches, each with its own secret hash, then 0069 runs. Every lock and air switch row keeps all its
 * other values; every device that may still connect is registered with its kind, tenant, client id and
 * the same hash, so it keeps authenticating with the secret it has; a released IMEI's old lock is not.
 * Tenant isolation holds, and the foreign keys keep the registry and the devices in agreement.
 */
import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { rowsOf } from '../src/db/rows.js';
import { findDeviceCredentials } from '../src/modules/device/credentials.js';
import { skipSuite } from './helper.js';
import { databaseBefore, refusingConstraint, removeDatabaseBefore } from './migrations-before.js';

/** Every column of a table's rows but the secret hash, digested in id order. */
const digest = (table: string) => sql.raw(`select count(*)::int as n, md5(string_agg((to_jsonb(t) - 'device_secret_hash')::text, ',' order by t.id)) as sum from ${table} t`);
const imeiOf = (g: number) => String(861_000_000_000_000 + g);

describe.skipIf(skipSuite)('one device registry: migration on a filled database', () => {
  let database: Database;
  let folder: string;
  let lockDigest: unknown;
  let switchDigest: unknown;
  let expected: string[];
  const run = (query: SQL) => database.system.execute(query);

  beforeAll(async () => {
    ({ database, folder } = await databaseBefore('0069_device_registry'));
    await run(sql`insert into tenants (id, name) values (100, 'A'), (200, 'B')`);
    // Lock g: tenant 200 every third; disabled every 5th, decommissioned every 7th, released every 11th
    // (decommissioned too), each hash md5 of its IMEI.
    await run(sql`insert into locks (tenant_id, imei, name, model, firmware_version, enabled, decommissioned_at, imei_released_at, device_secret_hash, created_at)
      select case when g % 3 = 0 then 200 else 100 end, (861000000000000 + g)::text, 'lock ' || g, 'ZG-N1', '1.0.' || g % 4,
        g % 5 <> 0 and g % 7 <> 0 and g % 11 <> 0, case when g % 7 = 0 or g % 11 = 0 then now() - interval '3 days' end,
        case when g % 11 = 0 then now() - interval '1 day' end, md5((861000000000000 + g)::text), now() - make_interval(hours => g)
      from generate_series(1, 300) g`);
    // A newer lock registered with the IMEI released by lock 11, in the other data centre.
    await run(sql`insert into locks (tenant_id, imei, name, model, firmware_version, device_secret_hash)
      values (200, ${imeiOf(11)}, 'lock 11 again', 'ZG-N1', '1.0.0', 'again')`);
    await run(sql`insert into air_switches (tenant_id, serial, name, model, enabled, device_secret_hash, last_seq)
      select case when g % 4 = 0 then 200 else 100 end, 'AS' || lpad(g::text, 8, '0'), 'box ' || g, 'ZG-AS4', g % 9 <> 0, md5('AS' || g), g
      from generate_series(1, 120) g`);
    lockDigest = rowsOf(await run(digest('locks')));
    switchDigest = rowsOf(await run(digest('air_switches')));
    expected = rowsOf<{ v: string }>(await run(sql`
      select concat_ws('|', 'lock', id, tenant_id, imei, device_secret_hash) as v from locks where imei_released_at is null
      union all select concat_ws('|', 'airSwitch', id, tenant_id, serial, device_secret_hash) from air_switches order by 1`)).map((row) => row.v);
    await migrateDatabase(database);
  }, 180_000);
  afterAll(() => removeDatabaseBefore(database, folder));

  it('keeps every lock and air switch row with all its other values', async () => {
    expect(lockDigest).toEqual([{ n: 301, sum: expect.any(String) }]);
    expect(rowsOf(await run(digest('locks')))).toEqual(lockDigest);
    expect(switchDigest).toEqual([{ n: 120, sum: expect.any(String) }]);
    expect(rowsOf(await run(digest('air_switches')))).toEqual(switchDigest);
  });

  it('registers every device that may connect with its kind, tenant, client id and secret hash', async () => {
    const registered = rowsOf<{ v: string }>(await run(sql`
      select concat_ws('|', device_kind, coalesce(lock_id, air_switch_id), tenant_id, client_id, secret_hash) as v from devices order by 1`));
    expect(expected).toHaveLength(301 - 27 + 120);
    expect(registered.map((row) => row.v)).toEqual(expected);
  });

  it('authenticates each device as before: same hash, disabled and decommissioned refused, a released IMEI naming its new lock', async () => {
    const locks = await findDeviceCredentials(database, 'lock', [imeiOf(1), imeiOf(5), imeiOf(7), imeiOf(11)]);
    const byKey = new Map(locks.map((row) => [row.key, row]));
    expect(byKey.get(imeiOf(1))).toMatchObject({ tenantId: 100, hash: md5Hex(imeiOf(1)), enabled: true });
    expect(byKey.get(imeiOf(5))).toMatchObject({ enabled: false });
    expect(byKey.get(imeiOf(7))).toMatchObject({ enabled: false });
    expect(byKey.get(imeiOf(11))).toMatchObject({ tenantId: 200, hash: 'again', enabled: true, id: 301 });
    const switches = await findDeviceCredentials(database, 'airSwitch', ['AS00000001', 'AS00000009', imeiOf(1)]);
    expect(switches.map((row) => [row.key, row.enabled])).toEqual(expect.arrayContaining([['AS00000001', true], ['AS00000009', false]]));
    expect(switches).toHaveLength(2); // a lock's IMEI is no air switch
  });

  it("keeps another tenant's registrations invisible", async () => {
    const count = (tenant: number) => database.withTenant(tenant, async (tx) =>
      rowsOf<{ kind: string; n: number }>(await tx.execute(sql`select device_kind as kind, count(*)::int as n from devices group by 1 order by 1`)));
    expect(await count(200)).toEqual([{ kind: 'airSwitch', n: 30 }, { kind: 'lock', n: 92 }]);
    expect(await count(100)).toEqual([{ kind: 'airSwitch', n: 90 }, { kind: 'lock', n: 182 }]);
  });

  it('ties each registration to its device: no other client id, no other tenant, no second registration', async () => {
    const refused = (query: SQL) => refusingConstraint(run(query));
    expect(await refused(sql`update locks set imei = '861000000009999' where id = 1`)).toBe('devices_lock_identity');
    expect(await refused(sql`insert into devices (tenant_id, device_kind, lock_id, client_id, secret_hash) values (100, 'lock', 11, ${imeiOf(11)}, 'x')`))
      .toBe('devices_client_id'); // lock 11's IMEI was released: the newer lock holds it
    expect(await refused(sql`insert into devices (tenant_id, device_kind, lock_id, client_id, secret_hash) values (200, 'lock', 22, ${imeiOf(22)}, 'x')`))
      .toBe('devices_lock_identity'); // lock 22 is tenant 100's
    // One namespace for every kind: a lock (inserted here bypassing the IMEI check) cannot take a switch's client id.
    const [odd] = rowsOf<{ id: number }>(await run(sql`insert into locks (tenant_id, imei, name, model, firmware_version) values (100, 'AS00000002', 'odd', 'ZG-N1', '') returning id`));
    expect(await refused(sql`insert into devices (tenant_id, device_kind, lock_id, client_id, secret_hash) values (100, 'lock', ${odd?.id}, 'AS00000002', 'x')`))
      .toBe('devices_client_id');
    expect(await refused(sql`insert into devices (tenant_id, device_kind, lock_id, air_switch_id, client_id, secret_hash) values (100, 'lock', 2, 2, ${imeiOf(2)}, 'x')`))
      .toBe('devices_one_device');
    expect(rowsOf(await run(sql`select count(*)::int as n from information_schema.columns where column_name = 'device_secret_hash'`))).toEqual([{ n: 0 }]);
  });
});

/** md5 hex of `text` (what the fill stored as each lock's hash). */
function md5Hex(text: string): string {
  return createHash('md5').update(text).digest('hex');
}
