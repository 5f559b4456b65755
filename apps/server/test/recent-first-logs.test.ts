/**
 * Recent-first reads of the day-partitioned logs (modules/deviceLog/recent.ts, counts.ts): a page read
 * from the last week, or from the whole log when the week does not hold it, and a tenant-wide count
 * from the newest days first, give exactly what reading the whole log gives: the same rows in the same
 * order on every page (offset and cursor paging), for one lock and tenant-wide, and the same totals; a
 * lock with rows before the week is counted as "more than" (totalCapped) until its last page.
 */
import { decodeCursor, type LogCursor } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { LOG_COUNT_CAP } from '../src/db/count.js';
import { rowsOf } from '../src/db/rows.js';
import { RECENT_DAYS } from '../src/modules/deviceLog/recent.js';
import { heartbeatLog } from '../src/modules/logHeartbeat/repo.js';
import { newDatabase, skipSuite } from './helper.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe.skipIf(skipSuite)('recent-first device log reads', () => {
  let database: Database;
  const lockIds: number[] = [];
  /** Inserts `n` heartbeats of `lockId` in tenant `tenantId`, received `agoMs` before now, one second apart (oldest first). */
  const insert = (tenantId: number, lockId: number, agoMs: number, n: number) => database.system.execute(sql`
    insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
    select ${tenantId}, ${lockId}, g, 80, -90, 10, 'V1', now(), now() - ${`${agoMs} milliseconds`}::interval + g * interval '1 second'
    from generate_series(1, ${n}) g`);
  /** Every heartbeat id of the tenant (and lock) in the log's order: a lock's by time then id, the tenant's by id, newest first. */
  const expected = async (tenantId: number, lockId?: number) => rowsOf<{ id: number }>(await database.system.execute(lockId === undefined
    ? sql`select id::int from heartbeats where tenant_id = ${tenantId} order by id desc`
    : sql`select id::int from heartbeats where lock_id = ${lockId} order by received_at desc, id desc`)).map((row) => row.id);
  const page = (tenantId: number, lockId: number | undefined, current: number, size = 20, cursor?: LogCursor) =>
    database.withTenant(tenantId, (tx) => heartbeatLog.list(tx, { lockId }, current, size, undefined, cursor));

  beforeAll(async () => {
    database = await newDatabase();
    await database.system.execute(sql`insert into tenants (id, name) values (100, 'A'), (101, 'B'), (102, 'C')`);
    for (const [tenantId, imei] of [[100, '860000000000001'], [100, '860000000000002'], [101, '860000000000003'], [102, '860000000000004']] as const) {
      const [row] = rowsOf<{ id: number }>(await database.system.execute(sql`insert into locks (tenant_id, imei, name, model, firmware_version)
        values (${tenantId}, ${imei}, 'lock', 'ZG-N1', '1.0.0') returning id`));
      lockIds.push(row?.id ?? 0);
    }
    // Inserted oldest first, as received: lock 1 has 30 heartbeats weeks ago and 5 this week (the week
    // cannot hold its first page); lock 2 has 45 this week (it holds its first two pages).
    await insert(100, lockIds[0] ?? 0, (RECENT_DAYS + 20) * DAY_MS, 30);
    await insert(100, lockIds[1] ?? 0, (RECENT_DAYS + 2) * DAY_MS, 3);
    await insert(100, lockIds[1] ?? 0, 3 * DAY_MS, 45);
    await insert(100, lockIds[0] ?? 0, 5 * HOUR_MS, 5);
  });
  afterAll(() => database?.close());

  it('gives a lock every page of the whole log, in its order, with offsets and with cursors', async () => {
    for (const lockId of lockIds.slice(0, 2)) {
      const all = await expected(100, lockId);
      let cursor: LogCursor | undefined;
      for (let current = 1; (current - 1) * 20 < all.length; current++) {
        const byOffset = await page(100, lockId, current);
        expect(byOffset.records.map((record) => record.id)).toEqual(all.slice((current - 1) * 20, current * 20));
        // Both locks have rows before the week: "more than" until the last page, which makes it exact.
        const last = current * 20 >= all.length;
        const inWeek = lockId === lockIds[0] ? 5 : 45;
        expect(byOffset).toMatchObject(last ? { total: all.length } : { total: Math.max(current * 20, inWeek), totalCapped: true });
        if (last) expect(byOffset.totalCapped).toBeUndefined();
        const byCursor = await page(100, lockId, current, 20, cursor);
        expect(byCursor.records.map((record) => record.id)).toEqual(all.slice((current - 1) * 20, current * 20));
        cursor = byCursor.nextCursor ? decodeCursor(byCursor.nextCursor) : undefined;
      }
    }
  });

  it('counts a lock exactly when all its rows are in the newest days, and exactly with a time range', async () => {
    await insert(102, lockIds[3] ?? 0, 2 * DAY_MS, 7);
    expect(await page(102, lockIds[3], 1)).toMatchObject({ total: 7 });
    expect((await page(102, lockIds[3], 1)).totalCapped).toBeUndefined();
    const startTime = new Date(Date.now() - (RECENT_DAYS + 30) * DAY_MS).toISOString();
    const ranged = await database.withTenant(100, (tx) => heartbeatLog.list(tx, { lockId: lockIds[0], startTime }, 1, 20));
    expect(ranged).toMatchObject({ total: 35 });
    expect(ranged.totalCapped).toBeUndefined();
  });

  it('gives the data centre every page of its whole log by id, and its exact total', async () => {
    const all = await expected(100);
    expect(all).toHaveLength(83);
    for (let current = 1; current <= 5; current++) {
      const result = await page(100, undefined, current);
      expect(result.records.map((record) => record.id)).toEqual(all.slice((current - 1) * 20, current * 20));
      expect(result.total).toBe(83);
      expect(result.totalCapped).toBeUndefined();
    }
  });

  it('reports the cap from the newest days alone, and an exact total when they hold fewer rows', async () => {
    await insert(101, lockIds[2] ?? 0, (RECENT_DAYS + 3) * DAY_MS, 40);
    expect(await page(101, undefined, 1)).toMatchObject({ total: 40 });
    await insert(101, lockIds[2] ?? 0, DAY_MS, LOG_COUNT_CAP + 5);
    const capped = await page(101, undefined, 1);
    expect(capped).toMatchObject({ total: LOG_COUNT_CAP, totalCapped: true });
    expect(capped.records.map((record) => record.id)).toEqual((await expected(101)).slice(0, 20));
  });
});
