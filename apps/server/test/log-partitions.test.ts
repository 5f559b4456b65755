/**
 * Retention of every day-partitioned log (db/partitions.ts pruneLog, which the log retention job,
 * modules/partition/retention.ts, runs): whole days past the retention are dropped, one statement each, and only the
 * rows left over (the boundary day, the default partition) are deleted row by row. Also: the partition
 * job keeps every table of PARTITIONED_TABLES a week ahead. The uplink log of every kind is one table
 * whose kinds are subtrees with their own days: a row goes to its kind's, and a query naming the kind
 * reads that subtree alone.
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { dailyPartitions, ensurePartitions, PARTITIONED_TABLES, pruneLog } from '../src/db/partitions.js';
import { rowsOf } from '../src/db/rows.js';
import { maintainPartitions } from '../src/modules/partition/job.js';
import { newDatabase, skipSuite } from './helper.js';

const DAY_MS = 86_400_000;
/** The UTC midnight `days` days from today's, ms. */
const midnight = (days: number) => Math.floor(Date.now() / DAY_MS) * DAY_MS + days * DAY_MS;
const partName = (table: string, ms: number) => `${table}_p${new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')}`;

describe.skipIf(skipSuite)('day-partitioned logs', () => {
  let database: Database;
  let lockId: number;
  let switchId: number;
  /** Ten rows of `table` at `ms` (epoch), seqs from `seq`. */
  const insertAt = (table: string, ms: number, seq: number) => {
    const at = sql`to_timestamp(${ms / 1000})`;
    const rows = sql`from generate_series(${seq}::int, ${seq + 9}::int) g`;
    const byTable: Record<string, SQL> = {
      heartbeats: sql`insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
        select 100, ${lockId}, g, 80, -90, 10, 'V1', now(), ${at} ${rows}`,
      lock_uplinks: sql`insert into uplinks (tenant_id, device_kind, lock_id, seq, msg_id, type, data, device_ts, received_at)
        select 100, 'lock', ${lockId}, g, 'm' || g, 'doorState', '{}', now(), ${at} ${rows}`,
      open_records: sql`insert into open_records (tenant_id, lock_id, method, success, lock_time, received_at)
        select 100, ${lockId}, 'card', true, now(), ${at} ${rows}`,
      audit_log: sql`insert into audit_log (tenant_id, username, action, result, created_at) select 100, 'u', 'a' || g, 'success', ${at} ${rows}`,
      air_switch_uplinks: sql`insert into uplinks (tenant_id, device_kind, air_switch_id, seq, type, device_ts, received_at, data)
        select 100, 'airSwitch', ${switchId}, g, 'telemetry', now(), ${at}, '{}' ${rows}`,
    };
    return database.system.execute(byTable[table] as SQL);
  };

  beforeAll(async () => {
    database = await newDatabase();
    await database.system.execute(sql`insert into tenants (id, name) values (100, 'A')`);
    [{ id: lockId }] = rowsOf<{ id: number }>(await database.system.execute(sql`insert into locks (tenant_id, imei, name, model, firmware_version)
      values (100, '860000000000001', 'lock', 'ZG-N1', '1.0.0') returning id`)) as [{ id: number }];
    [{ id: switchId }] = rowsOf<{ id: number }>(await database.system.execute(sql`insert into air_switches (tenant_id, serial, name, model)
      values (100, 'AS0000000001', 'box', 'ZG-AS4') returning id`)) as [{ id: number }];
  });
  afterAll(() => database?.close());

  it('keeps every partitioned table a week ahead', async () => {
    const later = new Date(midnight(30));
    const made = await maintainPartitions(database, { info() {}, warn() {} }, PARTITIONED_TABLES, later);
    expect(made).toEqual(Object.fromEntries(PARTITIONED_TABLES.map((spec) => [spec.table, 8])));
    for (const spec of PARTITIONED_TABLES) {
      expect((await dailyPartitions(database.system, spec.table)).map((part) => part.name)).toContain(partName(spec.table, midnight(37)));
    }
  });

  it.each(PARTITIONED_TABLES.map((spec) => spec.table))('drops whole days of %s past the retention and deletes only the rows left over', async (table) => {
    const spec = PARTITIONED_TABLES.find((each) => each.table === table);
    if (!spec) throw new Error(`${table} is not partitioned`);
    const count = async (where: SQL) => rowsOf<{ n: number }>(await database.system.execute(sql`
      select count(*)::int as n from ${sql.identifier(table)} where tenant_id = 100 and ${where}`))[0]?.n;
    const key = sql.identifier(spec.keyColumn);
    await ensurePartitions(database.system, spec, new Date(midnight(-10))); // days -10..-3
    for (let day = -10; day <= 0; day++) {
      await insertAt(table, midnight(day) + 1000, 10_000 + (day + 10) * 100); // just after midnight
      await insertAt(table, midnight(day + 1) - 60_000, 10_050 + (day + 10) * 100); // a minute before the next
    }
    await insertAt(table, midnight(-200), 20_000); // in the default partition (as are days -2 and -1's)
    expect(await count(sql`tableoid = ${`${table}_default`}::regclass and ${key} < to_timestamp(${midnight(-100) / 1000})`)).toBe(10);
    // Days -10..-6 end before now - 5 days; day -5 holds rows on both sides of the cutoff.
    const pruned = await pruneLog(database.system, spec, 5);
    expect(pruned).toEqual({ dropped: [-10, -9, -8, -7, -6].map((day) => partName(table, midnight(day))), deleted: 10 + 10 });
    expect(await count(sql`${key} < now() - interval '5 days'`)).toBe(0);
    expect(await count(sql`${key} >= to_timestamp(${midnight(-5) / 1000})`)).toBe(6 * 20 - 10);
    expect(await pruneLog(database.system, spec, 5)).toEqual({ dropped: [], deleted: 0 });
    expect((await dailyPartitions(database.system, table))[0]?.name).toBe(partName(table, midnight(-5)));
  });

  it('keeps the uplinks of every kind in one table, each kind in its own day partitions, read alone', async () => {
    await insertAt('lock_uplinks', Date.now(), 50_000);
    await insertAt('air_switch_uplinks', Date.now(), 50_000);
    const placed = rowsOf<{ part: string; kind: string; n: number }>(await database.system.execute(sql`
      select tableoid::regclass::text as part, device_kind as kind, count(*)::int as n from uplinks where seq >= 50000 group by 1, 2 order by 1`));
    expect(placed).toEqual([
      { part: partName('air_switch_uplinks', midnight(0)), kind: 'airSwitch', n: 10 }, { part: partName('lock_uplinks', midnight(0)), kind: 'lock', n: 10 },
    ]);
    const plan = rowsOf<{ 'QUERY PLAN': string }>(await database.system.execute(sql`
      explain select * from uplinks where device_kind = 'lock' and lock_id = ${lockId} order by received_at desc limit 20`))
      .map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('lock_uplinks');
    expect(plan).not.toContain('air_switch_uplinks');
    const refused = await database.system.execute(sql`insert into uplinks (tenant_id, device_kind, lock_id, seq, type, data, device_ts)
      values (100, 'waterMeter', ${lockId}, 1, 'x', '{}', now())`).then(() => null, (error: Error & { cause?: { message?: string } }) => error.cause?.message ?? error.message);
    expect(refused).toMatch(/no partition/);
  });
});
