/**
 * 设备信息 in one read (GET /iot/v1/lockDevice/information), on PGlite and PostgreSQL: the
 * record, type, groups, presence, reported vs desired configuration, credential slots with drift, the
 * queue and the latest alarms / unlock records / uplinks; a LOOK_INFO-only account reads it and the
 * 7-day series; bad and unknown IMEIs; another data centre's lock is not found.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { call, createTestContext, dataOf, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('device information', () => {
  let ctx: TestContext;
  let token: string;
  let lock: { id: number; imei: string; model: string };
  const get = (url: string, tenantId = 100, as = token) => call(ctx.app, as, { method: 'GET', url, tenantId });
  const post = (url: string, payload: object) => call(ctx.app, token, { method: 'POST', url, payload });

  beforeAll(async () => {
    ctx = await createTestContext({}, 5);
    token = await signIn(ctx.app);
    lock = dataOf(await get('/iot/v1/lockDevice/list?size=1')).records[0];
  });
  afterAll(() => ctx?.close());

  it('shows the lock with its type, groups, configuration, credentials and queue', async () => {
    await ctx.database.system.update(locks).set({ config: { volume: 60, autoLockS: 5 }, doorState: 'closed', locked: true }).where(eq(locks.id, lock.id));
    const group = dataOf(await post('/iot/v1/lockGroup/add', { name: '三号楼' })).id;
    await post('/iot/v1/lockGroup/addMembers', { groupId: group, target: { imeis: [lock.imei] } });
    const pushed = dataOf(await post('/iot/v1/lockConfig', { lockId: lock.id, config: { volume: 20, wrongAttemptLimit: 5 } }));
    const user = dataOf(await post('/iot/v1/zg/userOperation', { action: 'add', lockId: lock.id, name: '李四' }));

    const info = dataOf(await get(`/iot/v1/lockDevice/information?imei=${lock.imei}`));
    expect(info.lock).toMatchObject({ id: lock.id, imei: lock.imei, model: lock.model });
    expect(info.type).toMatchObject({ kind: 'lock', connectivity: expect.any(String), heartbeatIntervalS: expect.any(Number) });
    expect(info.groups).toEqual([{ id: group, name: '三号楼' }]);
    expect(info.presence).toMatchObject({ doorState: 'closed', locked: true, alwaysOnline: expect.any(Boolean) });
    expect(info.config).toEqual({
      reported: { volume: 60, autoLockS: 5 },
      desired: { volume: 20, autoLockS: 5, wrongAttemptLimit: 5 },
      lastPush: { id: pushed.id, state: 'QUEUED', createdAt: expect.any(String) },
    });
    const users = info.credentials.find((row: { table: string }) => row.table === 'users');
    expect(users).toMatchObject({ used: 1, syncing: 1, failed: 0, capacity: expect.any(Number) });
    expect(info.credentials.map((row: { table: string }) => row.table)).toEqual(['users', 'passwords', 'cards', 'fingerprints']);
    expect(info.commands.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([pushed.id]));
    expect(info.commands.length).toBe(2); // the push and the lock user's add
    expect(user.syncState).toBe('adding');
    for (const list of [info.alarms, info.openRecords, info.uplinks]) expect(Array.isArray(list)).toBe(true);
  });

  it('opens to LOOK_INFO alone, with the battery and signal series', async () => {
    const viewer = await operatorWith(ctx.app, token, 'info-viewer', ['LOOK_INFO']);
    expect((await get(`/iot/v1/lockDevice/information?imei=${lock.imei}`, 100, viewer.token)).statusCode).toBe(200);
    const since = encodeURIComponent(new Date(Date.now() - 7 * 86_400_000).toISOString());
    for (const series of ['batteryList', 'rssiList']) {
      expect((await get(`/iot/v1/logHeartbeat/${series}?imei=${lock.imei}&startTime=${since}`, 100, viewer.token)).statusCode).toBe(200);
    }
  });

  it('answers 400 for a malformed IMEI (both languages) and 404 for one not in the data centre', async () => {
    const bad = await get('/iot/v1/lockDevice/information?imei=12345');
    expect([bad.statusCode, bad.json().errors[0].field]).toEqual([400, 'query.imei']);
    expect(bad.json().errors[0].message['zh-CN']).not.toEqual(bad.json().errors[0].message['en-US']);
    expect((await get('/iot/v1/lockDevice/information?imei=490154203237518')).statusCode).toBe(404);
    expect((await get(`/iot/v1/lockDevice/information?imei=${lock.imei}`, 101)).statusCode).toBe(404);
  });
});
