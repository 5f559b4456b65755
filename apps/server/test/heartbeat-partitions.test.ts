/**
 * Partition maintenance and retention of the day-partitioned heartbeat log (db/partitions.ts,
 * modules/partition/job.ts; retention's dropPartitionsBefore and deleteRowsBefore): partitions are created a week ahead,
 * idempotently, with the parent's row-level security; rows that waited in the default partition move
 * into their day; retention drops whole days past the retention and deletes only the left-over rows.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { dailyPartitions, deleteRowsBefore, dropPartitionsBefore, ensurePartitions, PARTITIONED_TABLES } from '../src/db/partitions.js';
import { lockSeqKey, rowsOf } from '../src/db/rows.js';
import { type HeartbeatRecord, insertHeartbeats } from '../src/modules/logHeartbeat/writer.js';
import { applyHeartbeatReadings } from '../src/modules/lockDevice/readings.js';
import { maintainPartitions, startPartitionJob } from '../src/modules/partition/job.js';
import { newDatabase, skipSuite } from './helper.js';

const DAY_MS = 86_400_000;
const heartbeats = PARTITIONED_TABLES.find((spec) => spec.table === 'heartbeats');
const quiet = { info() {}, warn() {} };
/** The UTC midnight `days` days from today's, ms. */
const midnight = (days: number) => Math.floor(Date.now() / DAY_MS) * DAY_MS + days * DAY_MS;
const partName = (ms: number) => `heartbeats_p${new Date(ms).toISOString().slice(0, 10).replaceAll('-', '')}`;

describe.skipIf(skipSuite)('heartbeat partitions', () => {
  let database: Database;
  let lockId: number;
  const count = async (where = sql`true`) => rowsOf<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from heartbeats where ${where}`))[0]?.n;
  /** Inserts `n` heartbeats received at `ms` (epoch) with seqs from `seq`. */
  const insertAt = (ms: number, seq: number, n = 10) => database.system.execute(sql`
    insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
    select 100, ${lockId}, ${seq} + g, 80, -90, 10, 'V1', now(), to_timestamp(${ms / 1000}) from generate_series(0, ${n - 1}) g`);

  beforeAll(async () => {
    database = await newDatabase();
    await database.system.execute(sql`insert into tenants (id, name) values (100, 'A')`);
    [{ id: lockId }] = rowsOf<{ id: number }>(await database.system.execute(sql`insert into locks (tenant_id, imei, name, model, firmware_version)
      values (100, '860000000000001', 'lock', 'ZG-N1', '1.0.0') returning id`)) as [{ id: number }];
  });
  afterAll(() => database?.close());

  it('creates the partitions a week ahead, once, with the parent\'s row-level security', async () => {
    if (!heartbeats) throw new Error('heartbeats is not a partitioned table');
    const later = new Date(midnight(40) + 3600_000);
    expect(await ensurePartitions(database.system, heartbeats, later)).toBe(8); // that day and the 7 after it
    expect(await ensurePartitions(database.system, heartbeats, later)).toBe(0);
    expect(await maintainPartitions(database, quiet, [heartbeats], later)).toEqual({ heartbeats: 0 });
    const names = (await dailyPartitions(database.system, 'heartbeats')).map((part) => part.name);
    for (let day = 40; day <= 47; day++) expect(names).toContain(partName(midnight(day)));
    expect(names).toContain(partName(midnight(0))); // today's, from the migration
    const [security] = rowsOf<{ rls: boolean; policies: number }>(await database.system.execute(sql`
      select c.relrowsecurity as rls, (select count(*)::int from pg_policy p where p.polrelid = c.oid) as policies
      from pg_class c where c.relname = ${partName(midnight(47))}`));
    expect(security).toEqual({ rls: true, policies: 1 });
  });

  it('moves rows that waited in the default partition into their new day', async () => {
    await insertAt(midnight(60) + 3600_000, 1000, 5);
    expect(await count(sql`tableoid = 'heartbeats_default'::regclass`)).toBe(5);
    if (!heartbeats) throw new Error('heartbeats is not a partitioned table');
    expect(await ensurePartitions(database.system, heartbeats, new Date(midnight(60)))).toBe(8);
    expect(await count(sql`tableoid = 'heartbeats_default'::regclass`)).toBe(0);
    expect(await count(sql`tableoid = ${partName(midnight(60))}::regclass`)).toBe(5);
  });

  it('starts and stops the job', async () => {
    const job = startPartitionJob(database, quiet);
    await job.stop();
  });

  it('dedupes a redelivery on the fast path (seq above last_seq) and below it', async () => {
    const beat = (seq: number): HeartbeatRecord => ({ tenantId: 100, lockId, seq, ts: Date.now(),
      data: { battery: 70, rssi: -70, snr: 5, firmwareVersion: 'V2', intervalS: 300 } });
    const store = (seqs: number[]) => database.transaction(async (tx) => {
      const stored = await insertHeartbeats(tx, seqs.map(beat));
      await applyHeartbeatReadings(tx, seqs.filter((seq) => stored.has(lockSeqKey(lockId, seq))).map((seq) => ({ lockId, seq, data: beat(seq).data })));
      return stored.size;
    });
    expect(await store([5000, 5001, 5001])).toBe(2);
    expect(await store([5001, 5002])).toBe(1); // last_seq 5001: 5002 is new without looking, 5001 is looked up
    expect(await store([1000, 5000, 4999])).toBe(1); // 1000 is in a partition 60 days ahead; 4999 is late but new
    expect(await count(sql`seq between 4999 and 5002`)).toBe(4);
  });

  it('drops whole days past the retention and deletes only the rows left over', async () => {
    if (!heartbeats) throw new Error('heartbeats is not a partitioned table');
    await ensurePartitions(database.system, heartbeats, new Date(midnight(-10))); // days -10..-3
    for (let day = -10; day <= 0; day++) {
      await insertAt(midnight(day) + 1000, 10_000 + (day + 10) * 100); // just after midnight
      await insertAt(midnight(day + 1) - 60_000, 10_050 + (day + 10) * 100); // a minute before the next
    }
    await insertAt(midnight(-200), 20_000); // in the default partition
    const fiveDaysAgo = () => new Date(Date.now() - 5 * 86_400_000);
    const dropped = await dropPartitionsBefore(database.system, 'heartbeats', fiveDaysAgo());
    // Days -10..-6 end before now - 5 days; day -5 holds rows on both sides of the cutoff.
    expect(dropped).toEqual([-10, -9, -8, -7, -6].map((day) => partName(midnight(day))));
    expect(await count(sql`received_at < to_timestamp(${midnight(-5) / 1000})`)).toBe(10);
    expect(await deleteRowsBefore(database.system, heartbeats, 5)).toBe(10 + 10); // day -5's early rows, the default's
    expect(await count(sql`received_at < now() - interval '5 days'`)).toBe(0);
    expect(await count(sql`received_at >= to_timestamp(${midnight(-5) / 1000}) and received_at < to_timestamp(${midnight(1) / 1000}) and seq >= 10000`)).toBe(6 * 20 - 10);
    expect(await dropPartitionsBefore(database.system, 'heartbeats', fiveDaysAgo())).toEqual([]);
    expect((await dailyPartitions(database.system, 'heartbeats'))[0]?.name).toBe(partName(midnight(-5)));
  });
});
