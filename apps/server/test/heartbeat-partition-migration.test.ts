/**
 * Migration 0063 (heartbeats partitioned by day) on a filled database: a database migrated up to 0062
 * gets heartbeats of two tenants over eleven days (plus one 60 days old and one 30 days ahead), then
 * 0063 converts it. Every row keeps its id and values, the ids go on, tenant isolation holds through
 * the parent and on a partition read directly, and a redelivered heartbeat is still stored once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { rowsOf } from '../src/db/rows.js';
import { type HeartbeatRecord, insertHeartbeats } from '../src/modules/logHeartbeat/writer.js';
import { skipSuite } from './helper.js';
import { databaseBefore, removeDatabaseBefore } from './migrations-before.js';

/** Every heartbeat as one digest: count, max id and an md5 of all values in id order. */
const DIGEST = sql`select count(*)::int as n, max(id)::bigint as max_id, md5(string_agg(concat_ws('|', id, tenant_id, lock_id, seq, battery,
  rssi, snr, firmware_version, device_ts, received_at), ',' order by id)) as sum from heartbeats`;

describe.skipIf(skipSuite)('heartbeat partitioning migration on a filled database', () => {
  let database: Database;
  let folder: string;
  let before: { n: number; max_id: string; sum: string };
  const lockOf = new Map<number, number>();

  beforeAll(async () => {
    ({ database, folder } = await databaseBefore('0063_heartbeat_partitions'));
    await database.system.execute(sql`insert into tenants (id, name) values (100, 'A'), (200, 'B')`);
    for (const tenant of [100, 200]) {
      const [lock] = rowsOf<{ id: number }>(await database.system.execute(sql`insert into locks (tenant_id, imei, name, model, firmware_version, device_secret_hash)
        values (${tenant}, ${`86000000000${tenant}`}, 'lock', 'ZG-N1', '1.0.0', 'x') returning id`));
      lockOf.set(tenant, lock?.id as number);
    }
    // 3,000 heartbeats 5 min apart (about 10.4 days), a third of them tenant 200's; one 60 days old, one 30 days ahead.
    await database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select t, case t when 100 then ${lockOf.get(100)}::int else ${lockOf.get(200)}::int end, g, g % 101, -60 - g % 50, (g % 40) / 2.0,
        'V1.' || g % 7, now() - make_interval(mins => g * 5, secs => 7), now() - make_interval(mins => g * 5)
      from generate_series(1, 3000) g, lateral (select case when g % 3 = 0 then 200 else 100 end as t) x`);
    await database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      values (100, ${lockOf.get(100)}, 5001, 50, -80, 3.5, 'V1', now(), now() - interval '60 days'),
        (100, ${lockOf.get(100)}, 5002, 50, -80, 3.5, 'V1', now(), now() + interval '30 days')`);
    before = rowsOf<typeof before>(await database.system.execute(DIGEST))[0] as typeof before;
    await migrateDatabase(database);
  }, 120_000);
  afterAll(() => removeDatabaseBefore(database, folder));

  it('keeps every row with its id and values in a table partitioned by day', async () => {
    expect(before.n).toBe(3002);
    expect(rowsOf(await database.system.execute(DIGEST))).toEqual([before]);
    const [kind] = rowsOf<{ relkind: string }>(await database.system.execute(sql`select relkind from pg_class where oid = 'heartbeats'::regclass`));
    expect(kind?.relkind).toBe('p');
    const parts = rowsOf<{ name: string; n: number }>(await database.system.execute(sql`
      select c.relname as name, (select count(*)::int from heartbeats h where h.tableoid = c.oid) as n
      from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'heartbeats'::regclass`));
    expect(parts.length).toBeGreaterThanOrEqual(60 + 8); // the oldest row's day to a week ahead, and the default
    // Only the row 30 days ahead has no partition yet.
    expect(parts.find((part) => part.name === 'heartbeats_default')?.n).toBe(1);
    expect(rowsOf(await database.system.execute(sql`select to_regclass('heartbeats_unpartitioned') as old`))).toEqual([{ old: null }]);
  });

  it('keeps another tenant\'s heartbeats invisible, through the parent and in a partition', async () => {
    const count = (tenant: number, table: string) => database.withTenant(tenant, async (tx) =>
      rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]?.n);
    expect(await count(200, 'heartbeats')).toBe(1000);
    expect(await count(100, 'heartbeats')).toBe(2002);
    expect(await count(200, 'heartbeats_default')).toBe(0);
    expect(await count(100, 'heartbeats_default')).toBe(1);
    await expect(database.withTenant(200, (tx) => tx.execute(sql`insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts)
      values (100, ${lockOf.get(100)}, 9999, 1, -1, 1, 'V1', now())`))).rejects.toThrow();
  });

  it('stores new heartbeats with new ids and a redelivered one not again', async () => {
    const beat = (tenant: number, seq: number): HeartbeatRecord => ({ tenantId: tenant, lockId: lockOf.get(tenant) as number, seq, ts: Date.now(),
      data: { battery: 70, rssi: -70, snr: 5, firmwareVersion: 'V2', intervalS: 300 } });
    // seq 1 (today), 2997 (ten days ago, tenant 200) and 5001 (60 days ago) are stored already; 6000 is new.
    const stored = await database.transaction((tx) => insertHeartbeats(tx, [beat(100, 1), beat(200, 2997), beat(100, 5001), beat(100, 6000)]));
    expect([...stored]).toHaveLength(1);
    const [row] = rowsOf<{ id: string; seq: number }>(await database.system.execute(sql`select id, seq from heartbeats where seq = 6000`));
    expect(Number(row?.id)).toBeGreaterThan(Number(before.max_id));
    const again = await database.transaction((tx) => insertHeartbeats(tx, [beat(100, 6000)]));
    expect(again.size).toBe(0);
    expect(rowsOf(await database.system.execute(sql`select count(*)::int as n from heartbeats`))).toEqual([{ n: 3003 }]);
  });
});
