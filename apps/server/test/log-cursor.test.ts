/**
 * Keyset paging of the device logs on PGlite and PostgreSQL: pages chained by `nextCursor` give the
 * same rows as offset pages, without duplicates or gaps, also where rows share one time (to the
 * microsecond) or differ below the millisecond; prepared (no time range) and planned (time range) pages
 * alike; a requested sort pages by offset only; a malformed cursor is a 400 naming query.cursor in
 * both languages.
 */
import { encodeCursor } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

type Page = { records: { id: number }[]; total: number; nextCursor?: string };
const SIZE = 10;

describe.skipIf(skipSuite)('log lists paged by cursor', () => {
  let ctx: TestContext;
  let token: string;
  let imei: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 3);
    token = await signIn(ctx.app);
    imei = simulatedImei(0);
    const [lock] = await ctx.database.system.select({ id: locks.id, tenantId: locks.tenantId }).from(locks).where(eq(locks.imei, imei));
    const other = (await ctx.database.system.select({ id: locks.id }).from(locks).where(eq(locks.imei, simulatedImei(1))))[0];
    if (!lock || !other) throw new Error('no simulated locks');
    // Groups of four rows per millisecond, two of them one microsecond apart: equal times and sub-millisecond order.
    const at = sql`timestamptz '2026-03-01 08:00:00.123456+00' - make_interval(secs => (g / 4) * 0.001) + make_interval(secs => (g % 2) * 0.000001)`;
    for (const lockId of [lock.id, other.id]) {
      await ctx.database.system.execute(sql`insert into uplinks (tenant_id, device_kind, lock_id, seq, msg_id, type, data, device_ts, received_at)
        select ${lock.tenantId}, 'lock', ${lockId}, 9000 + g, 'k' || g, 'doorState', '{}'::jsonb, ${at}, ${at} from generate_series(1, 37) g`);
      await ctx.database.system.execute(sql`insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
        select ${lock.tenantId}, ${lockId}, 9000 + g, 90, -80, 5, 'V1.2.3', ${at}, ${at} from generate_series(1, 37) g`);
      await ctx.database.system.execute(sql`insert into open_records (tenant_id, lock_id, method, success, lock_time, received_at)
        select ${lock.tenantId}, ${lockId}, 'card', true, ${at}, ${at} from generate_series(1, 37) g`);
    }
  });
  afterAll(() => ctx?.close());

  const get = async (url: string): Promise<Page> => dataOf(await call(ctx.app, token, { method: 'GET', url }));
  const join = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

  /** Every page by offset, then every page by cursor from the first: the same ids in the same order. */
  async function compare(url: string) {
    const first = await get(join(url, `size=${SIZE}`));
    // A lock's total may be "more than" (totalCapped) until its last page: page by offset until a short page.
    const byOffset: number[] = [];
    let last = first;
    for (let current = 1; current === 1 || last.records.length === SIZE; current++) {
      last = await get(join(url, `size=${SIZE}&current=${current}`));
      byOffset.push(...last.records.map((r) => r.id));
    }
    const byCursor = first.records.map((r) => r.id);
    let next = first.nextCursor;
    for (let current = 2; next; current++) {
      const page = await get(join(url, `size=${SIZE}&current=${current}&cursor=${next}`));
      byCursor.push(...page.records.map((r) => r.id));
      next = page.nextCursor;
    }
    expect(byOffset.length, url).toBe(last.records.length ? last.total : first.total);
    expect(new Set(byCursor).size, url).toBe(byCursor.length);
    expect(byCursor, url).toEqual(byOffset);
  }

  it('chains pages by cursor to the same rows as offset pages, over equal and sub-millisecond times', async () => {
    const range = `startTime=${encodeURIComponent('2026-03-01T07:00:00Z')}&endTime=${encodeURIComponent('2026-03-01T09:00:00Z')}`;
    for (const list of ['/iot/v1/logUpCommand/list', '/iot/v1/logHeartbeat/list', '/iot/v1/lockOpenRecord/list']) {
      await compare(list);
      await compare(`${list}?imei=${imei}`);
      await compare(`${list}?${range}`);
      await compare(`${list}?imei=${imei}&${range}`);
    }
    await compare('/iot/v1/logUpCommand/list?type=doorState');
    expect((await get('/iot/v1/logUpCommand/list?size=10')).total).toBe(74);
  });

  it('ends the chain on a page that is not full, and pages a requested sort by offset only', async () => {
    const last = await get(`/iot/v1/logUpCommand/list?imei=${imei}&size=50`);
    expect(last.records).toHaveLength(37);
    expect(last.nextCursor).toBeUndefined();
    const sorted = await get('/iot/v1/logUpCommand/list?size=10&sortField=receivedAt&sortOrder=ascend');
    expect(sorted.nextCursor).toBeUndefined();
    const cursor = encodeCursor({ t: '2026-03-01T08:00:00.100000Z', id: 1 });
    const second = await get(`/iot/v1/logUpCommand/list?size=10&current=2&sortField=receivedAt&sortOrder=ascend&cursor=${cursor}`);
    expect(second.records.map((r) => r.id)).toEqual((await get('/iot/v1/logUpCommand/list?size=10&current=2&sortField=receivedAt&sortOrder=ascend')).records.map((r) => r.id));
  });

  it('refuses a malformed cursor with a 400 naming query.cursor in Chinese and English', async () => {
    const bad = ['abc', '!!!', encodeCursor({ t: 'yesterday', id: 1 }), encodeCursor({ t: '2026-03-01T08:00:00Z', id: -1 }),
      Buffer.from('{"t":"2026-03-01T08:00:00Z"}').toString('base64url'), Buffer.from('[1,2]').toString('base64url'), 'x'.repeat(500)];
    for (const cursor of bad) {
      for (const language of ['zh-CN', 'en-US']) {
        const response = await call(ctx.app, token, { method: 'GET', url: `/iot/v1/logHeartbeat/list?cursor=${encodeURIComponent(cursor)}`, headers: { 'accept-language': language } });
        expect(response.statusCode, cursor).toBe(400);
        const [error] = response.json().errors as { field: string; message: Record<string, string> }[];
        expect(error?.field).toBe('query.cursor');
        expect(error?.message['zh-CN']).toMatch(/游标/);
        expect(error?.message['en-US']).toMatch(/cursor/);
      }
    }
  });
});
