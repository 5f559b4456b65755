/**
 * Migration 0070 (one uplink log: the lock log and the air switch log become the two kinds' partitions
 * of `uplinks`) on a filled database: a database migrated up to 0069 gets 400 lock uplinks and 300 air
 * switch uplinks of two tenants over ten days (their ids overlap, the air switch sequence runs further),
 * then 0070 attaches them. Every row keeps its id and values under its kind, each kind keeps its day
 * partitions (the lock ones renamed with their log), new ids rise above both logs', tenant isolation
 * holds through the one table, and each writer still stores a redelivered uplink once.
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { rowsOf } from '../src/db/rows.js';
import { applyAirSwitchUplinks } from '../src/modules/airSwitch/ingest.js';
import { insertUplinks } from '../src/modules/uplinkLog/writer.js';
import { skipSuite } from './helper.js';
import { databaseBefore, removeDatabaseBefore, twoDataCentres } from './migrations-before.js';

/** A log's rows as one digest: count and an md5 of every row's values (without the columns 0070 adds) in id order. */
const digest = (relation: SQL, where: SQL = sql`true`, added = '{}') => sql`select count(*)::int as n,
  md5(string_agg((to_jsonb(t) - ${added}::text[])::text, ',' order by id)) as sum from ${relation} t where ${where}`;
/** `n` rows 30 minutes apart, every third tenant 200's. */
const fill = (n: number) => sql`from generate_series(1, ${n}::int) g, lateral (select case when g % 3 = 0 then 200 else 100 end as t,
  now() - make_interval(mins => g * 30) as at) x`;

describe.skipIf(skipSuite)('one uplink log: migration on a filled database', () => {
  let database: Database;
  let folder: string;
  let lockOf: Map<number, number>;
  let switchOf: Map<number, number>;
  let lockBefore: unknown;
  let switchBefore: unknown;
  let highest = 0;
  const run = (query: SQL) => database.system.execute(query);

  beforeAll(async () => {
    ({ database, folder } = await databaseBefore('0070_one_uplink_log'));
    ({ lockOf, switchOf } = await twoDataCentres(database, 1000));
    const lock = sql`case t when 100 then ${lockOf.get(100)}::int else ${lockOf.get(200)}::int end`;
    const box = sql`case t when 100 then ${switchOf.get(100)}::int else ${switchOf.get(200)}::int end`;
    await run(sql`insert into uplinks (tenant_id, lock_id, seq, msg_id, type, data, device_ts, received_at)
      select t, ${lock}, g, 'm' || g, 'doorState', jsonb_build_object('open', g % 2 = 0), at - interval '2 seconds', at ${fill(400)}`);
    await run(sql`select setval('air_switch_uplinks_id_seq', 5000)`);
    await run(sql`insert into air_switch_uplinks (tenant_id, air_switch_id, seq, type, device_ts, received_at, data)
      select t, ${box}, g, 'telemetry', at, at, jsonb_build_object('circuits', jsonb_build_array(g)) ${fill(300)}`);
    lockBefore = rowsOf(await run(digest(sql`uplinks`)));
    switchBefore = rowsOf(await run(digest(sql`air_switch_uplinks`)));
    highest = 5300;
    await migrateDatabase(database);
  }, 180_000);
  afterAll(() => removeDatabaseBefore(database, folder));

  it('keeps every row of both logs with its id and values, under its kind, in one table', async () => {
    expect(lockBefore).toEqual([{ n: 400, sum: expect.any(String) }]);
    expect(rowsOf(await run(digest(sql`uplinks`, sql`device_kind = 'lock'`, '{device_kind,air_switch_id}')))).toEqual(lockBefore);
    expect(rowsOf(await run(digest(sql`uplinks`, sql`device_kind = 'airSwitch'`, '{device_kind,lock_id,msg_id}')))).toEqual(switchBefore);
    expect(rowsOf(await run(sql`select count(*)::int as n from uplinks where (device_kind = 'lock') <> (lock_id is not null and air_switch_id is null)
      or (device_kind = 'airSwitch') <> (air_switch_id is not null and lock_id is null and msg_id is null)`))).toEqual([{ n: 0 }]);
  });

  it("keeps each kind's day partitions, the lock ones renamed with their log", async () => {
    const children = async (parent: string) => rowsOf<{ name: string }>(await run(sql`select c.relname as name from pg_inherits i
      join pg_class c on c.oid = i.inhrelid where i.inhparent = ${parent}::regclass order by 1`)).map((row) => row.name);
    expect(await children('uplinks')).toEqual(['air_switch_uplinks', 'lock_uplinks']);
    const locks = await children('lock_uplinks');
    expect(locks.length).toBeGreaterThanOrEqual(1 + 8); // the default and today to a week ahead
    expect(locks.every((name) => /^lock_uplinks_(p\d{8}|default)$/.test(name))).toBe(true);
    expect((await children('air_switch_uplinks')).every((name) => /^air_switch_uplinks_(p\d{8}|default)$/.test(name))).toBe(true);
    expect(rowsOf(await run(sql`select count(*)::int as n from pg_class where relkind in ('r', 'p') and relname ~ '^uplinks_(p|default)'`))).toEqual([{ n: 0 }]);
  });

  it("keeps another tenant's uplinks of either kind invisible through the one table", async () => {
    const count = (tenant: number) => database.withTenant(tenant, async (tx) =>
      rowsOf<{ kind: string; n: number }>(await tx.execute(sql`select device_kind as kind, count(*)::int as n from uplinks group by 1 order by 1`)));
    expect(await count(200)).toEqual([{ kind: 'airSwitch', n: 100 }, { kind: 'lock', n: 133 }]);
    expect(await count(100)).toEqual([{ kind: 'airSwitch', n: 200 }, { kind: 'lock', n: 267 }]);
  });

  it('stores new uplinks of both kinds above every earlier id, and a redelivered one not again', async () => {
    const uplink = (seq: number) => ({ tenantId: 100, lockId: lockOf.get(100) as number,
      message: { msgId: `r${seq}`, seq, type: 'doorState', ts: Date.now(), data: { open: true } } as never });
    const stored = await database.transaction((tx) => insertUplinks(tx, [uplink(1), uplink(2000)]));
    expect([...stored.values()]).toHaveLength(1);
    expect(stored.get(`${lockOf.get(100)}:2000`)).toBeGreaterThan(highest);
    const telemetry = (seq: number) => ({ tenantId: 100, airSwitchId: switchOf.get(100) as number, serial: 'x',
      message: { seq, type: 'telemetry', ts: Date.now(), data: { circuits: [] } } as never });
    expect(await database.transaction((tx) => applyAirSwitchUplinks(tx, [telemetry(1), telemetry(2000)], { timeZone: 'UTC' }))).toBe(1);
    const [fresh] = rowsOf<{ id: string }>(await run(sql`select id from uplinks where device_kind = 'airSwitch' and seq = 2000`));
    expect(Number(fresh?.id)).toBeGreaterThan(Number(stored.get(`${lockOf.get(100)}:2000`)));
  });
});
