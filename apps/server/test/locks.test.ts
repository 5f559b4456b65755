/** Lock list, analysis and the data-centre file, on PGlite and PostgreSQL. */
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { call, createTestContext, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('locks', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    token = await signIn(ctx.app);
    // Two locks of tenant 100 reported recently, one long ago; lock 0 has a low battery.
    await ctx.database.system.update(locks).set({ lastHeartbeatAt: sql`now()`, battery: 80, rssi: -85, snr: 12.5 })
      .where(inArray(locks.imei, [simulatedImei(1), simulatedImei(2)]));
    await ctx.database.system.update(locks).set({ lastHeartbeatAt: sql`now() - interval '10 minutes'`, battery: 10 })
      .where(inArray(locks.imei, [simulatedImei(0)]));
  });
  afterAll(() => ctx?.close());

  const get = (url: string) => call(ctx.app, token, { method: 'GET', url });

  it('pages the list with current and size', async () => {
    const page = (await get('/iot/v1/lockDevice/list?current=2&size=3')).json().data;
    expect(page).toMatchObject({ total: 8, current: 2, size: 3 });
    expect(page.records).toHaveLength(3);
    const record = page.records[0];
    expect(Object.keys(record)).toEqual(expect.arrayContaining(['id', 'imei', 'name', 'room', 'model', 'firmwareVersion', 'battery', 'rssi', 'online', 'lastHeartbeatAt']));
    expect(record.room.split('/')).toHaveLength(3);
    expect(record.vendor).toBe('ZIGUANG');
  });

  it('writes its timestamps as ISO 8601 UTC with milliseconds, the same instant as stored (the database formats them)', async () => {
    const instant = '2026-03-04T05:06:07.890Z';
    await ctx.database.system.update(locks).set({ lastHeartbeatAt: new Date(instant), serviceEndAt: null }).where(inArray(locks.imei, [simulatedImei(5)]));
    const [record] = (await get(`/iot/v1/lockDevice/list?keyword=${simulatedImei(5)}`)).json().data.records;
    expect(record).toMatchObject({ lastHeartbeatAt: instant, serviceEndAt: null });
    expect(record.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(new Date(record.createdAt).toISOString()).toBe(record.createdAt);
  });

  it('defaults to page 1 of 10', async () => {
    expect((await get('/iot/v1/lockDevice/list')).json().data).toMatchObject({ current: 1, size: 10, total: 8 });
  });

  it('searches by IMEI, name or room', async () => {
    const byImei = (await get(`/iot/v1/lockDevice/list?keyword=${simulatedImei(3)}`)).json().data;
    expect(byImei.records.map((r: { imei: string }) => r.imei)).toEqual([simulatedImei(3)]);
    const byBuilding = (await get(`/iot/v1/lockDevice/list?keyword=${encodeURIComponent('A栋')}&size=50`)).json().data;
    expect(byBuilding.total).toBeGreaterThan(0);
    expect(byBuilding.records.every((r: { room: string }) => r.room.startsWith('A栋'))).toBe(true);
    expect((await get('/iot/v1/lockDevice/list?keyword=%25')).json().data.total).toBe(0);
  });

  it('filters online locks: a heartbeat within 2.5 intervals', async () => {
    const online = (await get('/iot/v1/lockDevice/list?online=true')).json().data;
    expect(online.records.map((r: { imei: string }) => r.imei).sort()).toEqual([simulatedImei(1), simulatedImei(2)]);
    expect(online.records[0]).toMatchObject({ online: true, battery: 80, rssi: -85, snr: 12.5 });
    expect(new Date(online.records[0].lastHeartbeatAt).toISOString()).toBe(online.records[0].lastHeartbeatAt);
    expect((await get('/iot/v1/lockDevice/list?online=false')).json().data.total).toBe(6);
  });

  it('counts total, online, offline and low battery', async () => {
    const data = (await get('/iot/v1/lockDevice/analysis')).json().data;
    expect({ ...data.fleet, lowBattery: data.attention.lowBattery }).toMatchObject({ total: 8, online: 2, offline: 6, lowBattery: 1 });
  });

  it('answers a bad page size with 400 and the failing field', async () => {
    const response = await get('/iot/v1/lockDevice/list?size=501&online=maybe');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['query.online', 'query.size']);
  });

  it('lists the data centres as the static config file', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/static/config.json' });
    expect(response.json()).toEqual([{ label: expect.any(String), value: 100 }, { label: expect.any(String), value: 101 }]);
  });

  it('counts a huge log exactly only up to the cap, and says so', async () => {
    await ctx.database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select 100, l.id, 1000 + g, 50, -90, 10, 'V1', now(), now() - g * interval '1 second'
      from locks l, generate_series(1, 10005) g where l.imei = ${simulatedImei(5)}`);
    const all = (await get(`/iot/v1/logHeartbeat/list?imei=${simulatedImei(5)}&size=5`)).json().data;
    expect(all).toMatchObject({ total: 10_000, totalCapped: true });
    expect(all.records).toHaveLength(5);
    const since = new Date(Date.now() - 100_000).toISOString();
    const recent = (await get(`/iot/v1/logHeartbeat/list?imei=${simulatedImei(5)}&startTime=${since}`)).json().data;
    expect(recent.totalCapped).toBeUndefined();
    expect(recent.total).toBeGreaterThan(90);
    expect(recent.total).toBeLessThan(110);
  });

  it('answers unknown paths with the 404 envelope', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/iot/v1/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });
});
