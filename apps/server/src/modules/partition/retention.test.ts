import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { type Database, openDatabase } from '../../db/client.js';
import { migrateDatabase } from '../../db/migrate.js';
import { deleteRowsBefore } from '../../db/partitions.js';
import { rowsOf } from '../../db/rows.js';
import { pruneLogs, retainedLogs, startLogRetention } from './retention.js';

const quiet = { info() {}, warn() {} };

describe('log retention', () => {
  let database: Database;
  const count = async (table: string) => rowsOf<{ n: number }>(await database.system.execute(sql`
    select count(*)::int as n from ${sql.identifier(table)}`))[0]?.n;
  /** One row per day of age 0..(days - 1) in the uplink log, unlock records and the system log. */
  const fill = async (days: number) => {
    const age = sql`now() - make_interval(days => g, secs => 1)`;
    const ages = sql`from generate_series(0, ${days - 1}) g`;
    const lockId = sql`(select min(id) from locks)`;
    await database.system.execute(sql`insert into uplinks (tenant_id, device_kind, lock_id, seq, msg_id, type, data, device_ts, received_at)
      select 100, 'lock', ${lockId}, g + 1, 'm' || g, 'doorState', '{}', now(), ${age} ${ages}`);
    await database.system.execute(sql`insert into open_records (tenant_id, lock_id, method, success, lock_time, received_at)
      select 100, ${lockId}, 'card', true, now(), ${age} ${ages}`);
    await database.system.execute(sql`insert into audit_log (tenant_id, username, action, result, created_at)
      select 100, 'u', 'a' || g, 'success', ${age} ${ages}`);
  };

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateDatabase(database);
    await database.system.execute(sql`insert into tenants (id, name) values (100, 'A')`);
    await database.system.execute(sql`insert into locks (tenant_id, imei, name, model, firmware_version)
      values (100, '860000000000001', 'lock', 'ZG-N1', '1.0.0')`);
  });
  afterAll(() => database?.close());

  it('keeps every partitioned log by its own setting; the system log at least six months', () => {
    const config = loadConfig({ UPLINK_RETENTION_DAYS: '30', UNLOCK_RECORD_RETENTION_DAYS: '60', SYSTEM_LOG_RETENTION_DAYS: '200' });
    expect(Object.fromEntries(retainedLogs(config).map((retained) => [retained.table, retained.days]))).toEqual({
      heartbeats: 90, lock_uplinks: 30, open_records: 60, audit_log: 200, air_switch_uplinks: 30,
    });
    const defaults = loadConfig({});
    expect([defaults.UPLINK_RETENTION_DAYS, defaults.UNLOCK_RECORD_RETENTION_DAYS, defaults.SYSTEM_LOG_RETENTION_DAYS]).toEqual([180, 365, 365]);
    expect(() => loadConfig({ SYSTEM_LOG_RETENTION_DAYS: '30' })).toThrow(/SYSTEM_LOG_RETENTION_DAYS.*at least 180 days/s);
  });

  it('removes each log past its own days, and a failing log stops none of the others', async () => {
    await fill(400);
    const logs = [
      { table: 'lock_uplinks', keyColumn: 'received_at', days: 180 },
      { table: 'no_such_log', keyColumn: 'received_at', days: 1 },
      { table: 'open_records', keyColumn: 'received_at', days: 365 },
      { table: 'audit_log', keyColumn: 'created_at', days: 200 },
    ];
    const warnings: object[] = [];
    const done = await pruneLogs(database, { info() {}, warn: (fields) => warnings.push(fields) }, logs);
    expect(done.no_such_log).toEqual({ dropped: [], deleted: 0, failed: true });
    expect(warnings).toHaveLength(1);
    // Ages 0..179 d stay (the row of age 180 d is 1 s past the cutoff), and so on.
    expect([await count('lock_uplinks'), await count('open_records'), await count('audit_log')]).toEqual([180, 365, 200]);
    expect((done.lock_uplinks?.deleted ?? 0) + (done.lock_uplinks?.dropped.length ?? 0)).toBeGreaterThan(0);
    const again = await pruneLogs(database, quiet, logs.filter((retained) => retained.table !== 'no_such_log'));
    expect(Object.values(again)).toEqual([{ dropped: [], deleted: 0 }, { dropped: [], deleted: 0 }, { dropped: [], deleted: 0 }]);
  });

  it('deletes only heartbeats older than the retention, in bounded batches', async () => {
    // 25 heartbeats per day of age 0..99 days on one lock.
    await database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select 100, (select min(id) from locks), g, 80, -90, 10, 'V1', now(), now() - make_interval(days => g / 25, secs => 1)
      from generate_series(0, 2499) g`);
    const heartbeats = { table: 'heartbeats', keyColumn: 'received_at' };
    expect(await deleteRowsBefore(database.system, heartbeats, 90, { batchSize: 40, maxBatches: 2 })).toBe(80); // capped per run
    expect(await deleteRowsBefore(database.system, heartbeats, 90, { batchSize: 40 })).toBe(10 * 25 - 80); // ages 90..99 d
    expect(await count('heartbeats')).toBe(90 * 25);
    expect(await deleteRowsBefore(database.system, heartbeats, 90)).toBe(0);
  });

  it('runs on its own, then the other tasks, and stops cleanly', async () => {
    let also = 0;
    const job = startLogRetention(database, quiet, {
      logs: [{ table: 'lock_uplinks', keyColumn: 'received_at', days: 30 }], also: [async () => { also++; }], firstAfterMs: 1, everyMs: 60_000,
    });
    await expect.poll(() => count('lock_uplinks'), { timeout: 5000 }).toBe(30);
    await expect.poll(() => also, { timeout: 5000 }).toBe(1);
    await job.stop();
  });
});
