/**
 * Analysis on PGlite and PostgreSQL: every KPI and trend of GET /iot/v1/lockDevice/analysis
 * against rows this test writes through the real ingest (storeUplinks) and directly (as a seed or an
 * import would, with no job running), rollups caught up after a "restart" (a fresh runRollups over the
 * stored cursors), a late uplink counted in the earlier hour and day it belongs to, exactly-once
 * counting, a transaction still open holding the cursor back (PostgreSQL), tenant isolation and the
 * all-data-centres view refused to non-administrators; the big screen's air-switch panel.
 */
import { DEFAULT_TIME_ZONE, type protocol } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { storeUplinks, type UplinkRecord } from '../src/gateway/uplink-store.js';
import { runRollups } from '../src/modules/analysis/rollup.js';
import { call, createTestContext, dataOf, isPostgres, OPERATOR_PASSWORD, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';

type Lock = { id: number; tenantId: number; imei: string };
const HOUR = 3_600_000;

describe.skipIf(skipSuite)('analysis', () => {
  let ctx: TestContext;
  let token: string;
  let a: Lock;
  let b: Lock;
  let other: Lock; // tenant 101
  let seq = 1_000;
  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    token = await signIn(ctx.app);
    const byImei = async (imei: string) => (await ctx.database.system.select({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei }).from(locks).where(eq(locks.imei, imei)))[0] as Lock;
    [a, b, other] = [await byImei(simulatedImei(0)), await byImei(simulatedImei(1)), await byImei(simulatedImei(4))];
  });
  afterAll(() => ctx?.close());

  const uplink = (lock: Lock, type: protocol.UplinkType, data: object, ts = Date.now()): UplinkRecord =>
    ({ lockId: lock.id, tenantId: lock.tenantId, imei: lock.imei, message: { msgId: `m${++seq}`, seq, type, ts, data } as protocol.UplinkMessage });
  const open = (lock: Lock, method: protocol.OpenMethod, success: boolean, lockTime = Date.now()) => uplink(lock, 'openRecord', { method, success, lockTime }, lockTime);
  const heartbeat = (lock: Lock, battery: number, rssi: number, ts = Date.now()) =>
    uplink(lock, 'heartbeat', { battery, rssi, snr: 10, firmwareVersion: '1.0.0', intervalS: 30 }, ts);
  const analysis = async (query = '', tenantId = 100, as = token) => dataOf(await call(ctx.app, as, { method: 'GET', url: `/iot/v1/lockDevice/analysis${query}`, tenantId }));
  const dayOf = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: DEFAULT_TIME_ZONE }).format(ms);

  it('counts unlocks by method, failed attempts, alarms and heartbeats from ingested uplinks', async () => {
    await storeUplinks(ctx.database, [
      open(a, 'fingerprint', true), open(a, 'fingerprint', true), open(a, 'card', true), open(a, 'password', false),
      open(b, 'mechanicalKey', true), open(b, 'password', false), open(b, 'password', false),
      open(other, 'card', true),
      uplink(a, 'alarm', { kind: 'tamper', cleared: false }), uplink(b, 'alarm', { kind: 'doorLeftOpen', cleared: false }),
      heartbeat(a, 15, -110), heartbeat(b, 90, -80),
    ]);
    const before = await analysis();
    expect(before.unlocksToday.byMethod.fingerprint).toBe(0); // not rolled up yet
    expect(await runRollups(ctx.database)).toMatchObject({ open_records: 8, alerts: 2, heartbeats: 2 });
    const data = await analysis();
    expect(data.unlocksToday).toEqual({ byMethod: { password: 0, card: 1, fingerprint: 2, app: 0, mechanicalKey: 1, remote: 0 }, failed: 3 });
    expect(data.trends.days).toHaveLength(7);
    expect(data.trends.days[6]).toBe(dayOf(Date.now()));
    expect(data.trends.unlocks.fingerprint[6]).toBe(2);
    expect(data.trends.failed[6]).toBe(3);
    expect(data.trends.alarms.tamper[6]).toBe(1);
    expect(data.alarmsByKind).toMatchObject({ tamper: 1, doorLeftOpen: 1, lowBattery: 0 });
    expect(data.alarmsOpen).toEqual({ critical: 1, major: 0, minor: 1, warning: 0 });
    const hour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: DEFAULT_TIME_ZONE, hour: '2-digit', hourCycle: 'h23' }).format(Date.now()));
    expect(data.hourly.unlocksToday[hour]).toBe(7);
    expect(data.hourly.alarmsToday[hour]).toBe(2);
    expect(data.trends.onlineRate[6]).toBeCloseTo(2 / data.fleet.total, 5); // two locks reported today
    expect(data.top.failed.map((l: { imei: string; count: number }) => [l.imei, l.count])).toEqual([[b.imei, 2], [a.imei, 1]]);
    expect(data.top.alarms.map((l: { imei: string }) => l.imei).sort()).toEqual([a.imei, b.imei].sort());
    expect(data.fleet).toMatchObject({ total: 8, online: 2, offline: 6 });
    expect(data.attention).toMatchObject({ lowBattery: 1, weakSignal: 1 });
    expect(data.distributions.battery).toEqual([1, 0, 0, 0, 1]);
    expect(data.distributions.rssi).toEqual([0, 1, 0, 0, 1]);
    // Counted once: another run adds nothing.
    expect(await runRollups(ctx.database)).toEqual({ heartbeats: 0, open_records: 0, alerts: 0 });
    expect((await analysis()).unlocksToday.failed).toBe(3);
  });

  it('adds a late uplink to the earlier hour and day it belongs to', async () => {
    const lockTime = Date.now() - 2 * 24 * HOUR;
    await storeUplinks(ctx.database, [open(a, 'remote', true, lockTime)]);
    await runRollups(ctx.database);
    const data = await analysis();
    expect(data.trends.unlocks.remote[4]).toBe(1);
    expect(data.unlocksToday.byMethod.remote).toBe(0);
    const rows = await rowsOf<{ n: string }>(ctx.database.system.execute(sql`
      select n::text from analysis_tenant_hour where tenant_id = 100 and metric = 'unlock.remote' and hour = date_trunc('hour', ${new Date(lockTime).toISOString()}::timestamptz)`));
    expect(rows.map((r) => Number(r.n))).toEqual([1]);
  });

  it('catches up after downtime over history written directly, and the 30-day trend reads it', async () => {
    // A week of history inserted straight into the raw table (as a seed does) while no job ran.
    const values = Array.from({ length: 7 }, (_, day) => sql`(100, ${a.id}, ${50_000 + day}, ${80 - day}, -90, 10, '1.0.0', now() - make_interval(days => ${day + 1}), now() - make_interval(days => ${day + 1}))`);
    await ctx.database.system.execute(sql`insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at) values ${sql.join(values, sql`, `)}`);
    expect((await runRollups(ctx.database)).heartbeats).toBe(7); // a fresh run (a restart) resumes from the stored cursor
    const data = await analysis('?days=30');
    expect(data.trends.days).toHaveLength(30);
    expect(data.trends.onlineRate.slice(22, 29).every((rate: number) => rate > 0)).toBe(true);
    const rows = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`
      select count(*)::int as n from analysis_lock_day where lock_id = ${a.id} and metric = 'battery'`));
    expect(rows[0]?.n).toBe(8);
  });

  it.runIf(isPostgres)('holds the cursor back while an older transaction is open, then counts its rows', async () => {
    const [{ name }] = await rowsOf<{ name: string }>(ctx.database.system.execute(sql`select current_database() as name`)) as [{ name: string }];
    const client = new pg.Client({ connectionString: inject('postgresUrl').replace(/\/postgres$/, `/${name}`) });
    await client.connect();
    await client.query('begin');
    await client.query(`insert into open_records (tenant_id, lock_id, method, success, lock_time) values (100, ${a.id}, 'app', true, now())`);
    await storeUplinks(ctx.database, [open(b, 'app', true)]); // a later id, committed first
    await runRollups(ctx.database);
    expect((await analysis()).unlocksToday.byMethod.app).toBe(0);
    await client.query('commit');
    await client.end();
    await runRollups(ctx.database);
    expect((await analysis()).unlocksToday.byMethod.app).toBe(2);
  });

  it('keeps tenants apart, and gives every data centre only to administrators', async () => {
    const data101 = await analysis('', 101);
    expect(data101.unlocksToday.byMethod).toMatchObject({ card: 1, fingerprint: 0 });
    expect(data101.fleet.total).toBe(2);
    const all = await analysis('?scope=all');
    expect(all.scope).toBe('all');
    expect(all.fleet.total).toBe(10);
    expect(all.unlocksToday.byMethod.card).toBe(2);
    const operator = await signIn(ctx.app, 'operator', OPERATOR_PASSWORD);
    expect((await analysis('', 100, operator)).fleet.total).toBe(8);
    const refused = await call(ctx.app, operator, { method: 'GET', url: '/iot/v1/lockDevice/analysis?scope=all' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'FORBIDDEN']);
    const feed = await call(ctx.app, operator, { method: 'GET', url: '/iot/v1/lockDevice/analysis/feed?scope=all' });
    expect(feed.statusCode).toBe(403);
  });

  it('feeds the newest alarms and unlocks of the tenant', async () => {
    const after = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20)); // earlier tests' rows are all before `after`
    await storeUplinks(ctx.database, [open(a, 'card', false), uplink(a, 'alarm', { kind: 'duress', cleared: false }), open(other, 'card', true)]);
    const feed = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/analysis/feed?after=${encodeURIComponent(after)}` }));
    expect(feed.map((e: { type: string; what: string; level: string }) => `${e.type}:${e.what}:${e.level}`).sort()).toEqual(['alarm:duress:critical', 'unlock:card:failed']);
    expect(feed.every((e: { imei: string }) => e.imei === a.imei)).toBe(true);
  });

  it('answers the big screen\'s air-switch panel per data centre, every data centre only to administrators', async () => {
    const add = (serial: string, model: string, tenantId: number) => call(ctx.app, token, { method: 'POST', url: '/iot/v1/airSwitch/add', payload: { serial, name: serial, model }, tenantId });
    expect((await add('AS0000100501', 'ZG-AS4', 100)).statusCode).toBe(200);
    expect((await add('AS0000101501', 'ZG-AS2', 101)).statusCode).toBe(200);
    const panel = async (query: string, as = token) => call(ctx.app, as, { method: 'GET', url: `/iot/v1/lockDevice/analysis/airSwitches${query}` });
    expect(dataOf(await panel(''))).toEqual({ loadW: 0, energyKwh: 0, switches: 1, circuits: 4, trippedCircuits: 0, loadCurve: [] });
    expect(dataOf(await panel('?scope=all'))).toMatchObject({ switches: 2, circuits: 6 });
    const operator = await signIn(ctx.app, 'operator', OPERATOR_PASSWORD);
    expect((await panel('?scope=all', operator)).statusCode).toBe(403);
  });

  it('answers a bad range with 400', async () => {
    const response = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/analysis?days=8' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { field: string }) => e.field)).toEqual(['query.days']);
  });
});
