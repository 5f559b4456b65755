/**
 * Migration 0064 (the uplink log, unlock records, the system log and the air switch log partitioned by
 * day) on a filled database: a database migrated up to 0063 gets rows of two tenants in each of those
 * tables over about ten days, plus one 60 days old and one 30 days ahead (which waits in the default
 * partition), then 0064 converts them. Every row keeps its id and values, each id sequence goes on,
 * tenant isolation holds through the parent and on a partition read directly, and a redelivered uplink
 * is still stored once. Checked after every later migration (0070 made the two uplink logs partitions of one).
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { PARTITIONED_TABLES } from '../src/db/partitions.js';
import { rowsOf } from '../src/db/rows.js';
import { applyAirSwitchUplinks } from '../src/modules/airSwitch/ingest.js';
import { insertUplinks } from '../src/modules/uplinkLog/writer.js';
import { skipSuite } from './helper.js';
import { databaseBefore, removeDatabaseBefore, twoDataCentres } from './migrations-before.js';

const TABLES = ['uplinks', 'open_records', 'audit_log', 'air_switch_uplinks'] as const;
/**
 * Where a table's rows are after the later migrations: 0070 made the uplink logs of both kinds one
 * table, each kind's day-partitioned log (the lock log renamed lock_uplinks) a partition of it, with
 * the other kind's columns and device_kind added, and one id sequence (the `uplinks` one).
 */
const LATER: Record<string, { table: string; added: string[]; sequenceOf: string }> = {
  uplinks: { table: 'lock_uplinks', added: ['device_kind', 'air_switch_id'], sequenceOf: 'uplinks' },
  air_switch_uplinks: { table: 'air_switch_uplinks', added: ['device_kind', 'lock_id', 'msg_id'], sequenceOf: 'uplinks' },
};
const later = (table: string) => LATER[table] ?? { table, added: [], sequenceOf: table };
const keyOf = (table: string) => PARTITIONED_TABLES.find((spec) => spec.table === later(table).table)?.keyColumn ?? 'missing';
/** A table as one digest: count, max id and an md5 of every row's values (but the columns added later) in id order. */
const digest = (table: string, relation = table) => sql`select count(*)::int as n, max(id)::bigint as max_id,
  md5(string_agg((to_jsonb(t) - ${`{${later(table).added.join(',')}}`}::text[])::text, ',' order by id)) as sum from ${sql.identifier(relation)} t`;
/** 1,000 rows per table 15 min apart (about 10.4 days), every third tenant 200's, then one 60 days old and one 30 days ahead. */
const SERIES = sql`from generate_series(1, 1000) g, lateral (select case when g % 3 = 0 then 200 else 100 end as t,
  now() - make_interval(mins => g * 15) as at) x`;
const EXTRA = sql`(values (100, 5001, now() - interval '60 days'), (100, 5002, now() + interval '30 days')) as e(t, g, at)`;

describe.skipIf(skipSuite)('log partitioning migration on a filled database', () => {
  let database: Database;
  let folder: string;
  const before = new Map<string, { n: number; max_id: string; sum: string }>();
  let lockOf: Map<number, number>;
  let switchOf: Map<number, number>;
  const run = (query: SQL) => database.system.execute(query);

  beforeAll(async () => {
    ({ database, folder } = await databaseBefore('0064_log_partitions'));
    ({ lockOf, switchOf } = await twoDataCentres(database, 5002));
    const lock = sql`case t when 100 then ${lockOf.get(100)}::int else ${lockOf.get(200)}::int end`;
    const box = sql`case t when 100 then ${switchOf.get(100)}::int else ${switchOf.get(200)}::int end`;
    for (const rows of [SERIES, sql`from ${EXTRA}`]) {
      await run(sql`insert into uplinks (tenant_id, lock_id, seq, msg_id, type, data, device_ts, received_at)
        select t, ${lock}, g, 'm' || g, 'openRecord', jsonb_build_object('n', g), at - interval '3 seconds', at ${rows}`);
      await run(sql`insert into open_records (tenant_id, lock_id, uplink_id, method, slot, success, lock_time, received_at, refusal, operator)
        select t, ${lock}, g, 'card', g % 10, g % 5 <> 0, at, at, case when g % 5 = 0 then 'EXPIRED' end, null ${rows}`);
      await run(sql`insert into audit_log (tenant_id, username, action, target, result, client_ip, detail, created_at)
        select t, 'user' || g % 4, 'lock.edit', 'lock:' || g, 'success', '10.0.0.' || g % 250, jsonb_build_object('g', g), at ${rows}`);
      await run(sql`insert into air_switch_uplinks (tenant_id, air_switch_id, seq, type, device_ts, received_at, data)
        select t, ${box}, g, 'telemetry', at, at, jsonb_build_object('circuits', jsonb_build_array(g)) ${rows}`);
    }
    for (const table of TABLES) before.set(table, rowsOf<{ n: number; max_id: string; sum: string }>(await run(digest(table)))[0] as never);
    await migrateDatabase(database);
  }, 180_000);
  afterAll(() => removeDatabaseBefore(database, folder));

  it.each(TABLES)('keeps every row of %s with its id and values in a table partitioned by day', async (table) => {
    expect(before.get(table)?.n).toBe(1002);
    const now = later(table).table;
    expect(rowsOf(await run(digest(table, now)))).toEqual([before.get(table)]);
    const [kind] = rowsOf<{ kind: string; key: string }>(await run(sql`select c.relkind as kind, pg_get_partkeydef(c.oid) as key
      from pg_class c where c.oid = ${now}::regclass`));
    expect(kind).toEqual({ kind: 'p', key: `RANGE (${keyOf(table)})` });
    const parts = rowsOf<{ name: string; n: number }>(await run(sql`
      select c.relname as name, (select count(*)::int from ${sql.identifier(now)} r where r.tableoid = c.oid) as n
      from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${now}::regclass`));
    // The days holding rows (11 or 12, the one 60 days ago) and today to a week ahead; no empty day between.
    expect(parts.length).toBeGreaterThanOrEqual(1 + 11 + 1 + 7);
    expect(parts.length).toBeLessThanOrEqual(1 + 12 + 1 + 7);
    expect(parts.find((part) => part.name === `${now}_default`)?.n).toBe(1); // only the row 30 days ahead
    expect(rowsOf(await run(sql`select to_regclass(${`${table}_unpartitioned`}) as old`))).toEqual([{ old: null }]);
    const [fresh] = rowsOf<{ id: string }>(await run(sql`select nextval(pg_get_serial_sequence(${later(table).sequenceOf}, 'id')) as id`));
    expect(Number(fresh?.id)).toBeGreaterThan(Number(before.get(table)?.max_id));
  });

  it.each(TABLES)('keeps another tenant\'s rows of %s invisible, through the parent and in a partition', async (table) => {
    const count = (tenant: number, relation: string) => database.withTenant(tenant, async (tx) =>
      rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from ${sql.identifier(relation)}`))[0]?.n);
    const now = later(table).table;
    expect(await count(200, now)).toBe(333);
    expect(await count(100, now)).toBe(669);
    expect(await count(200, `${now}_default`)).toBe(0);
    expect(await count(100, `${now}_default`)).toBe(1);
  });

  it('stores a new uplink with a new id and a redelivered one not again, in both lock and air switch logs', async () => {
    const uplink = (tenant: number, seq: number) => ({ tenantId: tenant, lockId: lockOf.get(tenant) as number,
      message: { msgId: `r${seq}`, seq, type: 'doorState', ts: Date.now(), data: { open: true } } as never });
    // 1 (today), 999 (ten days ago, tenant 200), 5001 (60 days ago) and 5002 (in the default) are stored; 6000 is new.
    const stored = await database.transaction((tx) => insertUplinks(tx, [uplink(100, 1), uplink(200, 999), uplink(100, 5001), uplink(100, 5002), uplink(100, 6000)]));
    expect([...stored.values()]).toHaveLength(1);
    expect(stored.get(`${lockOf.get(100)}:6000`)).toBeGreaterThan(Number(before.get('uplinks')?.max_id));
    const telemetry = (tenant: number, seq: number) => ({ tenantId: tenant, airSwitchId: switchOf.get(tenant) as number, serial: 'x',
      message: { msgId: `a${seq}`, seq, type: 'telemetry', ts: Date.now(), data: { circuits: [] } } as never });
    expect(await database.transaction((tx) => applyAirSwitchUplinks(tx, [telemetry(100, 1), telemetry(200, 999), telemetry(100, 5001)], { timeZone: 'UTC' }))).toBe(0);
    expect(await database.transaction((tx) => applyAirSwitchUplinks(tx, [telemetry(100, 6000), telemetry(100, 6000)], { timeZone: 'UTC' }))).toBe(1);
    expect(await database.transaction((tx) => applyAirSwitchUplinks(tx, [telemetry(100, 6000)], { timeZone: 'UTC' }))).toBe(0);
    expect(rowsOf(await run(sql`select count(*)::int as n from air_switch_uplinks`))).toEqual([{ n: 1003 }]);
  });
});
