/**
 * The lock list's live-state, location and attention filters: each attention kind keeps
 * exactly the locks inserted to match it, in the caller's data centre only; so does the service ending
 * within 30 days (the home page's KPI); on PGlite and PostgreSQL.
 */
import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('lock attention filters', () => {
  let ctx: TestContext;
  let token: string;
  const ids = new Map<number, number>();
  const set = (i: number, values: PgUpdateSetSource<typeof locks>) =>
    ctx.database.system.update(locks).set(values).where(eq(locks.imei, simulatedImei(i)));
  /** A command of lock `i` in `state`, completed `hoursAgo` hours ago. */
  const command = (i: number, type: string, state: string, data: unknown, hoursAgo = 0) => ctx.database.system.execute(sql`
    insert into commands (msg_id, tenant_id, device_kind, lock_id, type, data, state, created_by, expires_at, completed_at)
    select ${`t-${i}-${type}-${state}-${hoursAgo}`}, tenant_id, 'lock', id, ${type}, ${JSON.stringify(data)}::jsonb, ${state}, 'test',
      now() + interval '1 day', case when ${state} in ('QUEUED', 'SENT') then null else now() - make_interval(hours => ${hoursAgo}) end
    from locks where imei = ${simulatedImei(i)}`);

  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    token = await signIn(ctx.app);
    for (const row of await ctx.database.system.select({ id: locks.id, imei: locks.imei }).from(locks)) ids.set(Number(row.imei.slice(-8)), row.id);
    // Tenant 100: locks 0-3, 5-8; tenant 101: 4 and 9. Everyone beat just now, awake, healthy, unless below.
    await ctx.database.system.update(locks).set({ lastHeartbeatAt: sql`now()`, lastUplinkAt: sql`now()`, battery: 80, rssi: -80, heartbeatIntervalS: 60 });
    await set(0, { battery: 20 }); // low battery (at the threshold)
    await set(1, { rssi: -106 }); // weak signal
    await set(2, { lastHeartbeatAt: sql`now() - interval '4 minutes'`, lastUplinkAt: sql`now() - interval '4 minutes'` }); // offline > 3 intervals
    await set(3, { lastHeartbeatAt: sql`now() - interval '165 seconds'`, lastUplinkAt: sql`now() - interval '165 seconds'` }); // offline, not long
    await set(5, { lastUplinkAt: sql`now() - interval '30 seconds'`, config: { volume: 1 } }); // asleep; configuration drift below
    await command(5, 'configPush', 'SUCCESSFUL', { config: { volume: 3 } }, 1);
    await set(6, { config: { volume: 3 } }); // in sync: the newest push is what it reports; an older one differs
    await command(6, 'configPush', 'SUCCESSFUL', { config: { volume: 1 } }, 3);
    await command(6, 'configPush', 'SUCCESSFUL', { config: { volume: 3 } }, 2);
    await command(6, 'configPush', 'CANCELED', { config: { volume: 2 } }, 1); // withdrawn: not desired
    await command(7, 'unlock', 'TIMEOUT', {}, 2); // failed within 24 h
    await command(8, 'unlock', 'FAILED', {}, 30); // failed, but long ago
    await command(8, 'unlock', 'SUCCESSFUL', {}, 1);
    await ctx.database.system.execute(sql`
      insert into lock_users (tenant_id, lock_id, user_slot, name, sync_state, pending_action, created_by)
      values (100, ${ids.get(8)}, 1, 'drift', 'add_failed', 'add', 'test'), (100, ${ids.get(7)}, 1, 'fine', 'normal', 'add', 'test')`);
    // Tenant 101 has a lock matching every filter: never listed for 100.
    await set(4, { battery: 5, rssi: -120, lastHeartbeatAt: sql`now() - interval '1 hour'`, building: 'A栋' });
    await command(4, 'unlock', 'FAILED', {}, 1);
  });
  afterAll(() => ctx?.close());

  const imeis = async (query: string, tenantId = 100) => {
    const page = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/list?size=50&${query}`, tenantId }));
    return (page.records as { imei: string }[]).map((r) => Number(r.imei.slice(-8))).sort((a, b) => a - b);
  };

  it.each([
    ['lowBattery=true', [0]],
    ['weakSignal=true', [1]],
    ['offlineLong=true', [2]],
    ['configDrift=true', [5]],
    ['credentialDrift=true', [8]],
    ['failedCommands=true', [7]],
    ['liveState=offline', [2, 3]],
    ['online=false', [2, 3]],
    ['liveState=asleep', [5]],
    ['liveState=online', [0, 1, 6, 7, 8]],
    ['online=true', [0, 1, 5, 6, 7, 8]],
    ['lowBattery=true&weakSignal=true', []],
  ])('%s lists exactly the matching locks', async (query, expected) => {
    expect(await imeis(query)).toEqual(expected);
  });

  it('filters by building, floor, room and firmware version (exact)', async () => {
    const [lock] = await ctx.database.system.select().from(locks).where(eq(locks.imei, simulatedImei(3)));
    if (!lock) throw new Error('no lock 3');
    const where = `building=${encodeURIComponent(lock.building)}&floor=${encodeURIComponent(lock.floor)}&room=${encodeURIComponent(lock.room)}`;
    expect(await imeis(where)).toContain(3);
    expect((await imeis(`building=${encodeURIComponent(lock.building)}`)).length).toBeGreaterThan(0);
    // Stored canonical (a heartbeat's V9.9.9 is kept as 9.9.9); any form of the version finds it.
    await set(3, { firmwareVersion: '9.9.9' });
    expect(await imeis('firmwareVersion=V9.9.9')).toEqual([3]);
    expect(await imeis('firmwareVersion=9.9.9%2Bbuild.1')).toEqual([3]);
    expect(await imeis('firmwareVersion=V9.9')).toEqual([]);
  });

  it('tells the live state of each record', async () => {
    const page = dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/list?keyword=${simulatedImei(5)}` }));
    expect(page.records[0]).toMatchObject({ online: true, liveState: 'asleep' });
  });

  it('keeps tenant 101 to its own locks', async () => {
    expect(await imeis('lowBattery=true', 101)).toEqual([4]);
    expect(await imeis('failedCommands=true', 101)).toEqual([4]);
    expect(await imeis('weakSignal=true&offlineLong=true', 101)).toEqual([4]);
  });

  it('门锁概况 counts what each attention link lists, by state, type, building, group and reading', async () => {
    await ctx.database.system.execute(sql`insert into lock_groups (tenant_id, name) values (100, 'g-survey'), (100, 'g-empty')`);
    await ctx.database.system.execute(sql`insert into lock_group_members (group_id, lock_id, tenant_id)
      select g.id, l.id, 100 from lock_groups g, locks l where g.name = 'g-survey' and l.imei in (${simulatedImei(0)}, ${simulatedImei(1)})`);
    const survey = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/survey' }));
    expect(survey).toMatchObject({ total: 8, liveStates: { online: 5, asleep: 1, offline: 2 }, disabled: 0, batteryUnknown: 0, rssiUnknown: 0 });
    expect(survey.attention).toEqual({ lowBattery: 1, weakSignal: 1, offlineLong: 1, configDrift: 1, credentialDrift: 1, failedCommands: 1 });
    for (const [kind, n] of Object.entries(survey.attention)) {
      expect(dataOf(await call(ctx.app, token, { method: 'GET', url: `/iot/v1/lockDevice/list?${kind}=true` })).total).toBe(n);
    }
    expect(survey.battery.find((b: { from: number }) => b.from === 20)).toEqual({ from: 20, to: 30, count: 1 });
    expect(survey.battery.find((b: { from: number }) => b.from === 80).count).toBe(7);
    expect(survey.battery.at(-1)).toMatchObject({ from: 90, to: 100 });
    expect(survey.rssi).toEqual([
      { from: null, to: -115, count: 0 }, { from: -115, to: -105, count: 1 }, { from: -105, to: -95, count: 0 },
      { from: -95, to: -85, count: 0 }, { from: -85, to: null, count: 7 },
    ]);
    expect(survey.types.reduce((sum: number, t: { count: number }) => sum + t.count, 0)).toBe(8);
    expect(survey.buildings.reduce((sum: number, t: { count: number }) => sum + t.count, 0)).toBe(8);
    expect(survey.groups).toEqual([{ id: expect.any(Number), name: 'g-survey', count: 2 }, { id: expect.any(Number), name: 'g-empty', count: 0 }]);
    const other = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/survey', tenantId: 101 }));
    expect(other).toMatchObject({ total: 2, groups: [], attention: { lowBattery: 1, failedCommands: 1 } });
  });

  it('refuses an unknown live state with 400 naming the field', async () => {
    const response = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?liveState=dozing&configDrift=maybe' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['query.configDrift', 'query.liveState']);
  });

  it('serviceExpiring=true lists exactly the locks the home page\'s "service ends within 30 days" KPI counts', async () => {
    await ctx.database.system.update(locks).set({ serviceEndAt: null });
    await set(5, { serviceEndAt: sql`now() + interval '10 days'` }); // expiring
    await set(6, { serviceEndAt: sql`now() + interval '29 days 23 hours'` }); // expiring, at the edge
    await set(7, { serviceEndAt: sql`now() + interval '31 days'` }); // later
    await set(8, { serviceEndAt: sql`now() - interval '1 day'` }); // already ended
    await set(4, { serviceEndAt: sql`now() + interval '5 days'` }); // tenant 101
    expect(await imeis('serviceExpiring=true')).toEqual([5, 6]);
    expect(await imeis('serviceExpiring=true', 101)).toEqual([4]);
    const analysis = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/analysis' }));
    expect(analysis.fleet.serviceExpiring).toBe(2);
    const bad = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?serviceExpiring=soon' });
    expect([bad.statusCode, bad.json().errors.map((e: { field: string }) => e.field)]).toEqual([400, ['query.serviceExpiring']]);
  });
});
