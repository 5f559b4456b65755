/**
 * 产品 (RoomInquiry): the location tree (buildings, then floors) and the lock-room list (a
 * floor's rooms with each lock's live state, battery, door and active alarms; also the lock picker),
 * confined to the caller's data centre; on PGlite and PostgreSQL.
 */
import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { call, createTestContext, dataOf, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('room inquiry', () => {
  let ctx: TestContext;
  let token: string;
  const set = (i: number, values: PgUpdateSetSource<typeof locks>) => ctx.database.system.update(locks).set(values).where(eq(locks.imei, simulatedImei(i)));
  const get = async (url: string, tenantId = 100) => dataOf(await call(ctx.app, token, { method: 'GET', url, tenantId }));

  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    token = await signIn(ctx.app);
    // Tenant 100: locks 0-3 and 5-8; 101: 4 and 9.
    await set(0, { building: 'T栋', floor: '2层', room: '201', lastHeartbeatAt: sql`now()`, lastUplinkAt: sql`now()`, battery: 55, doorState: 'open' });
    await set(1, { building: 'T栋', floor: '2层', room: '202', lastHeartbeatAt: sql`now() - interval '20 seconds'`, lastUplinkAt: sql`now() - interval '20 seconds'`, heartbeatIntervalS: 300 });
    await set(2, { building: 'T栋', floor: '3层', room: '301' });
    await set(3, { building: '', floor: '', room: '' });
    await set(4, { building: 'T栋', floor: '2层', room: '209' });
    await ctx.database.system.execute(sql`insert into alerts (tenant_id, device_kind, lock_id, kind, severity)
      select tenant_id, 'lock', id, k, 'major' from locks, unnest(array['tamper', 'lowBattery']) k where imei = ${simulatedImei(2)}`);
    await ctx.database.system.execute(sql`insert into alerts (tenant_id, device_kind, lock_id, kind, severity, state)
      select tenant_id, 'lock', id, 'tamper', 'major', 'cleared' from locks where imei = ${simulatedImei(0)}`);
  });
  afterAll(() => ctx?.close());

  it('lists the buildings with their locks counted by live state and alarms', async () => {
    const buildings = await get('/iot/v1/lockDevice/locationTree');
    expect(buildings.map((b: { name: string }) => b.name)).toEqual(['', 'A栋', 'B栋', 'C栋', 'T栋']);
    expect(buildings.find((b: { name: string }) => b.name === 'T栋')).toEqual({ name: 'T栋', locks: 3, online: 1, asleep: 1, offline: 1, alarmed: 1 });
    expect(buildings.reduce((sum: number, b: { locks: number }) => sum + b.locks, 0)).toBe(8);
  });

  it('lists the floors of a building', async () => {
    const floors = await get(`/iot/v1/lockDevice/locationTree?building=${encodeURIComponent('T栋')}`);
    expect(floors).toEqual([
      { name: '2层', locks: 2, online: 1, asleep: 1, offline: 0, alarmed: 0 },
      { name: '3层', locks: 1, online: 0, asleep: 0, offline: 1, alarmed: 1 },
    ]);
  });

  it('lists the rooms of a floor with each lock and its live state', async () => {
    const rooms = await get(`/iot/v1/lockDevice/lockRoomList?building=${encodeURIComponent('T栋')}&floor=${encodeURIComponent('2层')}&size=200`);
    expect(rooms).toHaveLength(2);
    expect(rooms[0]).toMatchObject({
      imei: simulatedImei(0), room: 'T栋/2层/201', location: { building: 'T栋', floor: '2层', room: '201' },
      liveState: 'online', battery: 55, doorState: 'open', openAlarms: 0, state: 'active',
    });
    expect(rooms[1]).toMatchObject({ imei: simulatedImei(1), liveState: 'asleep', battery: null, doorState: null });
    // A sleeping lock's next wake: its last heartbeat + its interval.
    const wake = new Date(rooms[1].nextWakeAt).getTime();
    expect(Math.abs(wake - (Date.now() + 280_000))).toBeLessThan(30_000);
    const third = await get(`/iot/v1/lockDevice/lockRoomList?building=${encodeURIComponent('T栋')}&floor=${encodeURIComponent('3层')}`);
    expect(third).toMatchObject([{ imei: simulatedImei(2), liveState: 'offline', openAlarms: 2 }]);
    const unplaced = await get('/iot/v1/lockDevice/lockRoomList?building=&floor=');
    expect(unplaced.map((r: { imei: string }) => r.imei)).toEqual([simulatedImei(3)]);
  });

  it('still serves the lock picker: keyword and size, ordered by id', async () => {
    const picked = await get('/iot/v1/lockDevice/lockRoomList?keyword=8612345&size=3');
    expect(picked.map((r: { imei: string }) => r.imei)).toEqual([simulatedImei(0), simulatedImei(1), simulatedImei(2)]);
    expect((await get(`/iot/v1/lockDevice/lockRoomList?keyword=${encodeURIComponent('T栋/3层')}`)).map((r: { imei: string }) => r.imei)).toEqual([simulatedImei(2)]);
  });

  it('keeps every data centre to its own rooms', async () => {
    const floors = await get(`/iot/v1/lockDevice/locationTree?building=${encodeURIComponent('T栋')}`, 101);
    expect(floors).toEqual([{ name: '2层', locks: 1, online: 0, asleep: 0, offline: 1, alarmed: 0 }]);
    const rooms = await get(`/iot/v1/lockDevice/lockRoomList?building=${encodeURIComponent('T栋')}&floor=${encodeURIComponent('2层')}`, 101);
    expect(rooms.map((r: { imei: string }) => r.imei)).toEqual([simulatedImei(4)]);
  });

  it('refuses a size above 200 with 400', async () => {
    const response = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/lockRoomList?size=201' });
    expect(response.statusCode).toBe(400);
  });
});
