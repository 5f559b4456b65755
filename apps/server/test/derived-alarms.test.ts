/**
 * Derived alarms (docs/protocol.md "Derived alarms") through the real ingest path, the
 * presence sweep and the forecast job, on PGlite and PostgreSQL: forcedEntry, bruteForce (one lock, and
 * one credential on many locks), silentLock (an NB-IoT lock sleeping within its interval is not silent),
 * batteryCliff; each in the alert lifecycle (severity, clear, acknowledge), thresholds per tenant.
 */
import { ANALYSIS_THRESHOLD_DEFAULTS, type protocol } from '@iot/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts, locks } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { storeUplinks, type UplinkRecord } from '../src/gateway/uplink-store.js';
import { runForecasts } from '../src/modules/analysis/forecast.js';
import { runRollups } from '../src/modules/analysis/rollup.js';
import { sweepPresence } from '../src/modules/lockDevice/presence.js';
import { presenceFollowers } from '../src/wiring.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

type Lock = { id: number; tenantId: number; imei: string };

describe.skipIf(skipSuite)('derived alarms', () => {
  let ctx: TestContext;
  let token: string;
  const lock: Lock[] = [];
  let seq = 5_000;
  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    token = await signIn(ctx.app);
    for (const i of [0, 1, 2, 3, 5, 4]) lock.push((await ctx.database.system.select({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei }).from(locks).where(eq(locks.imei, simulatedImei(i))))[0] as Lock);
  });
  afterAll(() => ctx?.close());

  const uplink = (l: Lock, type: protocol.UplinkType, data: object, ts = Date.now()): UplinkRecord =>
    ({ lockId: l.id, tenantId: l.tenantId, imei: l.imei, message: { msgId: `d${++seq}`, seq, type, ts, data } as protocol.UplinkMessage });
  const door = (l: Lock, state: 'open' | 'closed', ts = Date.now()) => uplink(l, 'doorState', { door: state, locked: state === 'closed' }, ts);
  const attempt = (l: Lock, success: boolean, extra: object = {}, lockTime = Date.now()) => uplink(l, 'openRecord', { method: 'password', success, lockTime, ...extra }, lockTime);
  const active = async (l: Lock, kind: string) => ctx.database.system.select().from(alerts).where(and(eq(alerts.lockId, l.id), eq(alerts.kind, kind), eq(alerts.state, 'active')));
  const all = async (l: Lock, kind: string) => ctx.database.system.select().from(alerts).where(and(eq(alerts.lockId, l.id), eq(alerts.kind, kind)));

  it('forcedEntry: the door opens with no unlock before it; an unlock within N s prevents it; closing clears it', async () => {
    const [l0, l1] = lock as [Lock, Lock];
    await storeUplinks(ctx.database, [attempt(l1, true, {}, Date.now() - 10_000), door(l1, 'open')]);
    expect(await all(l1, 'forcedEntry')).toEqual([]);
    await storeUplinks(ctx.database, [attempt(l0, true, {}, Date.now() - 120_000), door(l0, 'open')]); // older than 30 s
    const [raised] = await active(l0, 'forcedEntry');
    expect(raised).toMatchObject({ severity: 'critical', state: 'active', tenantId: 100 });
    const page = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockAlert/list?kind=forcedEntry' }));
    expect(page.records.map((r: { imei: string }) => r.imei)).toEqual([l0.imei]);
    const ack = await call(ctx.app, token, { method: 'POST', url: '/iot/v1/lockAlert/acknowledge', payload: { ids: [raised?.id] } });
    expect(ack.statusCode).toBe(200);
    await storeUplinks(ctx.database, [door(l0, 'closed')]);
    expect((await all(l0, 'forcedEntry')).map((r) => [r.state, r.acknowledgedBy])).toEqual([['cleared', 'admin']]);
  });

  it('bruteForce on one lock after N failed attempts within the window', async () => {
    const l2 = lock[2] as Lock;
    await storeUplinks(ctx.database, Array.from({ length: ANALYSIS_THRESHOLD_DEFAULTS.bruteForceAttempts - 1 }, (_, i) => attempt(l2, false, {}, Date.now() - 60_000 + i)));
    expect(await all(l2, 'bruteForce')).toEqual([]);
    await storeUplinks(ctx.database, [attempt(l2, false)]);
    expect((await active(l2, 'bruteForce')).map((r) => [r.severity, r.detail])).toEqual([['major', `5 failed attempts within ${ANALYSIS_THRESHOLD_DEFAULTS.bruteForceWindowS} s`]]);
  });

  it('bruteForce when one credential fails on many locks; thresholds are per tenant', async () => {
    const [l0, l1, , l3] = lock as [Lock, Lock, Lock, Lock];
    await storeUplinks(ctx.database, [attempt(l0, false, { slot: 9 }), attempt(l1, false, { slot: 9 })]);
    expect(await all(l0, 'bruteForce')).toEqual([]);
    await storeUplinks(ctx.database, [attempt(l3, false, { slot: 9 })]);
    for (const l of [l0, l1, l3]) expect((await active(l, 'bruteForce'))[0]?.detail).toBe('password #9 failed on 3 locks');
    // Tenant 101 allows 2 attempts per lock; tenant 100 keeps its defaults.
    const l101 = lock[5] as Lock;
    const url = '/iot/v1/lockDevice/analysis/thresholds';
    dataOf(await call(ctx.app, token, { method: 'POST', url, tenantId: 101, payload: { ...ANALYSIS_THRESHOLD_DEFAULTS, bruteForceAttempts: 2 } }));
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url, tenantId: 101 })).bruteForceAttempts).toBe(2);
    expect(dataOf(await call(ctx.app, token, { method: 'GET', url })).bruteForceAttempts).toBe(5);
    const bad = await call(ctx.app, token, { method: 'POST', url, payload: { ...ANALYSIS_THRESHOLD_DEFAULTS, forcedEntryS: 0 } });
    expect([bad.statusCode, bad.json().errors[0].field]).toEqual([400, 'body.forcedEntryS']);
    await storeUplinks(ctx.database, [attempt(l101, false), attempt(l101, false)]);
    expect(await active(l101, 'bruteForce')).toHaveLength(1);
  });

  it('silentLock: offline past 3 intervals, not a lock sleeping within its interval; a heartbeat clears it', async () => {
    const [, , , , sleeper, silent] = lock as Lock[] as [Lock, Lock, Lock, Lock, Lock, Lock];
    const beat = (l: Lock) => uplink(l, 'heartbeat', { battery: 70, rssi: -90, snr: 5, firmwareVersion: '1.0.0', intervalS: 3600 });
    await storeUplinks(ctx.database, [beat(sleeper), beat(silent)]);
    // The sleeper beat 2 h ago (interval 1 h: online, asleep); the silent one 4 h ago (past 2.5 and 3 intervals).
    await ctx.database.system.update(locks).set({ lastHeartbeatAt: sql`now() - interval '2 hours'`, lastUplinkAt: sql`now() - interval '2 hours'` }).where(eq(locks.id, sleeper.id));
    await ctx.database.system.update(locks).set({ lastHeartbeatAt: sql`now() - interval '4 hours'`, lastUplinkAt: sql`now() - interval '4 hours'` }).where(eq(locks.id, silent.id));
    await sweepPresence(ctx.database, presenceFollowers);
    expect(await all(sleeper, 'silentLock')).toEqual([]);
    expect((await active(silent, 'silentLock')).map((r) => r.severity)).toEqual(['major']);
    await sweepPresence(ctx.database, presenceFollowers);
    expect((await all(silent, 'silentLock'))[0]?.occurrences).toBe(1);
    await storeUplinks(ctx.database, [beat(silent)]);
    expect((await all(silent, 'silentLock')).map((r) => r.state)).toEqual(['cleared']);
  });

  it('batteryCliff: a draining trend that runs flat within N days, listed in the forecast', async () => {
    const l3 = lock[3] as Lock;
    // Five days of readings falling 6 %/day to 18 % today: flat in about 3 days.
    const values = Array.from({ length: 5 }, (_, d) => sql`(100, ${l3.id}, ${90_000 + d}, ${42 - d * 6}, -90, 10, '1.0.0', now() - make_interval(days => ${4 - d}), now() - make_interval(days => ${4 - d}))`);
    await ctx.database.system.execute(sql`insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at) values ${sql.join(values, sql`, `)}`);
    await ctx.database.system.update(locks).set({ battery: 18 }).where(eq(locks.id, l3.id));
    await runRollups(ctx.database);
    expect(await runForecasts(ctx.database)).toBe(true);
    const [alarm] = await active(l3, 'batteryCliff');
    expect(alarm).toMatchObject({ severity: 'warning', detail: 'flat in 3 d' });
    const data = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/analysis' }));
    expect(data.batteryForecast.total).toBe(1);
    expect(data.batteryForecast.locks[0]).toMatchObject({ imei: l3.imei, battery: 18 });
    expect(data.batteryForecast.locks[0].slopePerDay).toBeCloseTo(-6, 3);
    // A new battery: the trend no longer predicts a cliff and the alarm clears.
    await ctx.database.system.update(locks).set({ battery: 100 }).where(eq(locks.id, l3.id));
    await ctx.database.system.execute(sql`insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts) values (100, ${l3.id}, 90100, 100, -90, 10, '1.0.0', now())`);
    await runRollups(ctx.database);
    await runForecasts(ctx.database);
    expect((await all(l3, 'batteryCliff')).map((r) => r.state)).toEqual(['cleared']);
  });
});
