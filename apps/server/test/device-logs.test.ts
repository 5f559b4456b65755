/**
 * Device-activity log APIs on PGlite and PostgreSQL: 上报日志, 心跳日志 (list + series),
 * 报警日志, 开锁日志: filters, paging, tenant isolation of every route, CSV / Excel exports, 400s.
 */
import { ALERT_DETAIL_LABELS, type protocol, SERIES_MAX_POINTS } from '@iot/contract';
import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { storeUplinks } from '../src/gateway/uplink-store.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

type Lock = { id: number; tenantId: number; imei: string };
type Event = Exclude<protocol.UplinkMessage, { type: 'heartbeat' }>;
const HOUR = 3600_000;

describe.skipIf(skipSuite)('device logs', () => {
  let ctx: TestContext;
  let token: string;
  let a: Lock; // tenant 100, building A
  let c: Lock; // tenant 100, building C
  let b: Lock; // tenant 101
  beforeAll(async () => {
    ctx = await createTestContext({}, 5);
    token = await signIn(ctx.app);
    const byImei = async (imei: string) => (await ctx.database.system.select({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei }).from(locks).where(eq(locks.imei, imei)))[0] as Lock;
    [a, c, b] = [await byImei(simulatedImei(0)), await byImei(simulatedImei(2)), await byImei(simulatedImei(4))];
    // Lock a: one heartbeat a minute for 20 h (1200 rows); c and b: 10 each in the last 10 minutes.
    const beats = (lock: Lock, n: number, everyMin: number) => ctx.database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select ${lock.tenantId}, ${lock.id}, g, 100 - g / 24, -80 - g % 20, 5 + g % 10, 'V1.2.3', now() - make_interval(mins => g * ${everyMin}), now() - make_interval(mins => g * ${everyMin})
      from generate_series(1, ${n}) g`);
    await beats(a, 1200, 1);
    await beats(c, 10, 1);
    await beats(b, 10, 1);
    let seq = 5000;
    const event = (lock: Lock, type: Event['type'], data: object) =>
      ({ lockId: lock.id, tenantId: lock.tenantId, imei: lock.imei, message: { msgId: `m${++seq}`, seq, type, ts: Date.now(), data } as Event });
    const open = (lock: Lock, method: string, success = true) => event(lock, 'openRecord', { method, success, slot: 2, lockTime: Date.now() - 1000 });
    await storeUplinks(ctx.database, [
      open(a, 'card'), open(a, 'app'), open(a, 'password', false), open(c, 'fingerprint'), open(b, 'card'),
      event(a, 'doorState', { door: 'open', locked: false }), event(c, 'configReport', { config: { volume: 10 } }),
      event(b, 'doorState', { door: 'open', locked: false }), event(a, 'alarm', { kind: 'tamper' }), event(b, 'alarm', { kind: 'tamper' }),
    ]);
  });
  afterAll(() => ctx?.close());

  const send = (url: string, tenantId = 100, language = 'zh-CN') => call(ctx.app, token, { method: 'GET', url, tenantId, headers: { 'accept-language': language } });
  const get = async (url: string, tenantId = 100) => dataOf(await send(url, tenantId));
  const imeis = (page: { records: { imei: string }[] }) => [...new Set(page.records.map((r) => r.imei))].sort();

  it('lists uplinks newest first with type, lock, keyword and time filters and paging', async () => {
    const all = await get('/iot/v1/logUpCommand/list?size=50');
    expect(all.total).toBe(7);
    expect(all.records[0]).toMatchObject({ imei: expect.any(String), room: expect.stringMatching(/栋\//), type: expect.any(String), data: expect.any(Object) });
    expect((await get('/iot/v1/logUpCommand/list?type=openRecord')).total).toBe(4);
    expect((await get(`/iot/v1/logUpCommand/list?imei=${c.imei}`)).records.map((r: { type: string }) => r.type).sort()).toEqual(['configReport', 'openRecord']);
    expect((await get(`/iot/v1/logUpCommand/list?keyword=${encodeURIComponent('C栋')}`)).total).toBe(2);
    const page2 = await get('/iot/v1/logUpCommand/list?current=2&size=3');
    expect(page2).toMatchObject({ current: 2, size: 3, total: 7 });
    expect(page2.records).toHaveLength(3);
    const future = new Date(Date.now() + HOUR).toISOString();
    expect((await get(`/iot/v1/logUpCommand/list?startTime=${encodeURIComponent(future)}`)).total).toBe(0);
  });

  it('lists heartbeats by lock, keyword and time range, with paging', async () => {
    expect((await get('/iot/v1/logHeartbeat/list')).total).toBe(1210);
    const page = await get(`/iot/v1/logHeartbeat/list?lockId=${a.id}&current=3&size=100`);
    expect(page.records).toHaveLength(100);
    expect(page.records[0]).toMatchObject({ imei: a.imei, seq: 201, battery: expect.any(Number), rssi: expect.any(Number), firmwareVersion: 'V1.2.3' });
    const since = new Date(Date.now() - 30.5 * 60_000).toISOString();
    expect((await get(`/iot/v1/logHeartbeat/list?startTime=${encodeURIComponent(since)}`)).total).toBe(40); // a: 30, c: 10
    expect((await get(`/iot/v1/logHeartbeat/list?keyword=${encodeURIComponent('C栋')}`)).total).toBe(10);
  });

  it('gives one lock\'s battery and signal series, averaged per bucket over long ranges', async () => {
    const start = encodeURIComponent(new Date(Date.now() - 21 * HOUR).toISOString());
    const long = await get(`/iot/v1/logHeartbeat/batteryList?lockId=${a.id}&startTime=${start}`);
    expect(long.bucketS).toBeGreaterThan(0);
    expect(long.points.length).toBeGreaterThan(100);
    expect(long.points.length).toBeLessThanOrEqual(SERIES_MAX_POINTS + 1);
    expect(Object.keys(long.points[0]).sort()).toEqual(['battery', 'time']);
    const short = await get(`/iot/v1/logHeartbeat/rssiList?imei=${a.imei}&startTime=${encodeURIComponent(new Date(Date.now() - 10.5 * 60_000).toISOString())}`);
    expect(short).toMatchObject({ lockId: a.id, bucketS: 0 });
    expect(short.points).toHaveLength(10);
    expect(short.points[0]).toEqual({ time: expect.any(String), rssi: expect.any(Number), snr: expect.any(Number) });
    expect(short.points.map((p: { time: string }) => p.time)).toEqual(short.points.map((p: { time: string }) => p.time).sort());
    expect((await send(`/iot/v1/logHeartbeat/batteryList?lockId=${b.id}`)).statusCode).toBe(404);
    expect((await send('/iot/v1/logHeartbeat/rssiList')).statusCode).toBe(400);
  });

  it('lists unlock records with method and success filters, and one lock\'s latest', async () => {
    expect((await get('/iot/v1/lockOpenRecord/list')).total).toBe(4);
    expect((await get('/iot/v1/lockOpenRecord/list?method=card')).total).toBe(1);
    expect((await get('/iot/v1/lockOpenRecord/list?success=false')).records.map((r: { method: string }) => r.method)).toEqual(['password']);
    const latest = await get(`/iot/v1/lockOpenRecordList?lockId=${a.id}&limit=2`);
    expect(latest).toHaveLength(2);
    expect(latest.every((r: { imei: string }) => r.imei === a.imei)).toBe(true);
    expect((await send(`/iot/v1/lockOpenRecordList?imei=${b.imei}`)).statusCode).toBe(404);
  });

  it('never shows tenant 101\'s rows under tenant 100 (and the other way round) on any log route', async () => {
    const lists = ['/iot/v1/logUpCommand/list', '/iot/v1/logHeartbeat/list', '/iot/v1/lockAlert/list', '/iot/v1/lockOpenRecord/list'];
    for (const url of lists) {
      const mine = url.includes('lockAlert') ? [a.imei] : [a.imei, c.imei].sort();
      expect([url, imeis(await get(`${url}?size=500`))]).toEqual([url, mine]);
      expect([url, imeis(await get(`${url}?size=500`, 101))]).toEqual([url, [b.imei]]);
      expect([url, (await get(`${url}?imei=${b.imei}`)).total]).toEqual([url, 0]);
      const csv = (await send(url.replace('/list', '/export'))).body;
      expect([url, csv.includes(b.imei), csv.includes(a.imei)]).toEqual([url, false, true]);
    }
    const journal = await send(`/iot/v1/lockDevice/journal?imei=${b.imei}`);
    expect(journal.statusCode).toBe(404);
    expect((await get(`/iot/v1/lockDevice/journal?imei=${b.imei}`, 101)).entries.length).toBeGreaterThan(0);
  });

  it('exports CSV (BOM, header in the caller\'s language, parseable) and Excel (opens with exceljs)', async () => {
    const response = await send(`/iot/v1/lockOpenRecord/export?format=csv&lockId=${a.id}`, 100, 'en-US');
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="unlock-records-\d+\.csv"/);
    expect(response.headers['x-export-truncated']).toBe('false');
    expect(response.body.charCodeAt(0)).toBe(0xfeff);
    const rows = parse(response.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ IMEI: a.imei, Method: 'Password', Success: 'Failed' }); // enum labels in the caller's language
    const zh = parse((await send('/iot/v1/logHeartbeat/export')).body, { bom: true, columns: true }) as Record<string, string>[];
    expect(zh).toHaveLength(1210);
    expect(Object.keys(zh[0] ?? {})).toContain('电量 (%)');
    const xlsx = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockAlert/export?format=xlsx' });
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(2).getCell(2).value).toBe(a.imei);
    // An alert's detail is what its kind means, in the caller's language; the lock's own text has its own column.
    const alertRows = parse((await send('/iot/v1/lockAlert/export', 100, 'en-US')).body, { bom: true, columns: true }) as Record<string, string>[];
    expect(alertRows.length).toBeGreaterThan(0);
    const meanings = Object.values(ALERT_DETAIL_LABELS).map((label) => label['en-US']);
    for (const row of alertRows) expect(meanings).toContain(String(row.Detail).replace(/ \(.*\)$/, ''));
    const up = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/logUpCommand/export?format=xlsx&type=doorState' });
    await workbook.xlsx.load(up.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.rowCount).toBe(2);
  });

  it('answers bad filters with 400 naming the field', async () => {
    const fields = async (url: string) => (await send(url)).json().errors.map((e: { field: string }) => e.field).sort();
    expect(await fields('/iot/v1/logUpCommand/list?type=heartbeat&size=501')).toEqual(['query.size', 'query.type']);
    expect(await fields('/iot/v1/logHeartbeat/list?startTime=2025-02-01T00:00:00Z&endTime=2025-01-01T00:00:00Z')).toEqual(['query.endTime']);
    expect(await fields('/iot/v1/lockAlert/list?severity=huge&state=gone&startTime=yesterday')).toEqual(['query.severity', 'query.startTime', 'query.state']);
    expect(await fields('/iot/v1/lockOpenRecord/list?method=magic&imei=123&success=maybe')).toEqual(['query.imei', 'query.method', 'query.success']);
    expect(await fields('/iot/v1/lockOpenRecord/export?format=pdf')).toEqual(['query.format']);
    expect(await fields('/iot/v1/lockOpenRecordList?lockId=1&limit=1000')).toEqual(['query.limit']);
  });
  it('finds a lock by the room text its rows show, also with an empty floor, on every log and list', async () => {
    const [{ floor } = { floor: '' }] = await ctx.database.system.select({ floor: locks.floor }).from(locks).where(eq(locks.id, a.id));
    await ctx.database.system.update(locks).set({ floor: '' }).where(eq(locks.id, a.id));
    try {
      const room = (await get(`/iot/v1/logUpCommand/list?imei=${a.imei}`)).records[0].room as string;
      expect(room.split('/')).toHaveLength(2); // building/room: no empty part
      const keyword = encodeURIComponent(room);
      for (const url of ['/iot/v1/logUpCommand/list', '/iot/v1/logHeartbeat/list', '/iot/v1/lockAlert/list', '/iot/v1/lockOpenRecord/list', '/iot/v1/lockDevice/list']) {
        expect([url, imeis(await get(`${url}?keyword=${keyword}&size=500`))]).toEqual([url, [a.imei]]);
      }
      expect((await get('/iot/v1/logUpCommand/list?keyword=%25')).total).toBe(0); // LIKE wildcards match literally
    } finally {
      await ctx.database.system.update(locks).set({ floor }).where(eq(locks.id, a.id));
    }
  });

  it("writes times in the operator's time zone when given, naming it in the header", async () => {
    const response = await send(`/iot/v1/lockOpenRecord/export?lockId=${a.id}&timeZone=Asia%2FShanghai`, 100, 'en-US');
    const [row] = parse(response.body, { bom: true, columns: true }) as Record<string, string>[];
    const local = row?.['Received at (Asia/Shanghai)'] ?? '';
    expect(local).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const [api] = (await get(`/iot/v1/lockOpenRecord/list?lockId=${a.id}`)).records;
    expect(Date.parse(`${local.replace(' ', 'T')}+08:00`)).toBe(Math.floor(Date.parse(api.receivedAt) / 1000) * 1000);
    expect((await send('/iot/v1/lockOpenRecord/export?timeZone=Mars%2FOlympus')).json().errors.map((e: { field: string }) => e.field)).toEqual(['query.timeZone']);
  });
});
