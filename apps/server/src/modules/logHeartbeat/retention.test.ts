import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../db/client.js';
import { migrateDatabase } from '../../db/migrate.js';
import { rowsOf as rows } from '../../db/rows.js';
import { deleteOldHeartbeats } from './retention.js';

describe('heartbeat retention', () => {
  let database: Database;
  const count = async () => rows<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from heartbeats`))[0]?.n;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateDatabase(database);
    await database.system.execute(sql`insert into tenants (id, name) values (100, 'A')`);
    await database.system.execute(sql`insert into locks (tenant_id, imei, name, model, firmware_version, device_secret_hash)
      values (100, '860000000000001', 'lock', 'ZG-N1', '1.0.0', 'x')`);
    // 25 heartbeats per day of age 0..99 days on one lock.
    await database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select 100, (select min(id) from locks), g, 80, -90, 10, 'V1', now(), now() - make_interval(days => g / 25, secs => 1)
      from generate_series(0, 2499) g`);
  });
  afterAll(() => database?.close());

  it('deletes only heartbeats older than the retention, in bounded batches', async () => {
    expect(await deleteOldHeartbeats(database, { days: 90, batchSize: 40, maxBatches: 2 })).toBe(80); // capped per run
    expect(await deleteOldHeartbeats(database, { days: 90, batchSize: 40 })).toBe(10 * 25 - 80); // ages 90..99 d
    expect(await count()).toBe(90 * 25);
    expect(await deleteOldHeartbeats(database, { days: 90 })).toBe(0);
  });
});
