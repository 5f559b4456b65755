/**
 * Backup codes for sleeping locks (docs/stays.md "Backup codes") with real simulated locks,
 * on PGlite and PostgreSQL: the job's pass (run by the test, as its events would) fills each lock's
 * pool through the outbox and the entries become 正常 -> a walk-in checked in while the lock sleeps has
 * its own code queued -> a backup code is issued (the same code when asked again) and the simulated
 * keypad accepts it -> the lock wakes, the guest's code becomes 正常, the backup user is deleted (the
 * keypad refuses its digits) and the pool is refilled; a check-out retires an issued code the same way.
 * Refusals: no entry ready (409), a stay not checked in (409), a door already ready (409), a lock outside
 * the room and bad input (400 with fields); the system-log rows; tenant isolation.
 */
import { type Fleet, startFleet } from '@iot/simulator';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { auditLog, backupCodes, credentials, deviceTypes, locks, lockUsers } from '../src/db/schema.js';
import { runBackupCodes } from '../src/modules/backupCode/job.js';
import { attachSimulator } from '../src/demo/keypad.js';
import { runStays } from '../src/modules/stay/job.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, startOutboxEnv, TEST_SECRET_KEY, waitFor } from './outbox-support.js';

const HOUR = 3600_000;
const at = (ms: number) => new Date(ms).toISOString();
const quiet = { warn: () => {} };
/**
 * The sleeping lock's wake window, ms, and the platform's (shorter: its window starts at the uplink's
 * commit): long enough for a few commands in a row (a pool entry is two, a guest's door two more).
 */
const WAKE_MS = 3000;
const PLATFORM_AWAKE_MS = WAKE_MS - 600;
/** Heartbeat of the simulated locks, s: the sleeping one sleeps about 7 s between wakes. */
const HEARTBEAT_S = 10;
/** Pool size set on the data centre's device types for this file. */
const POOL = 2;
/** Two wakes of the sleeping lock and its commands, ms. */
const WAKES_MS = 3 * HEARTBEAT_S * 1000;

type Code = { id: number; lockId: number; code: string; validUntil: string; expiringMinutes: number };

describe.skipIf(skipSuite)('backup codes for sleeping locks', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let token: string;
  const box = lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY });
  // Lock 0 is always online (room 0), lock 1 sleeps between heartbeats (room 1), lock 2 has no simulator and never answers (room 2).
  const rooms = [0, 1, 2].map((index) => ({ building: '备用楼', floor: 'B1', room: `BK-${index}` }));
  const lockId = (index: number) => env.devices[index]?.lockId as number;
  const sleepy = () => fleet.devices.find((device) => device.imei === env.devices[1]?.imei) as Fleet['devices'][number];
  const send = (method: 'GET' | 'POST', url: string, payload?: object, tenantId?: number) =>
    call(env.ctx.app, token, { method, url, ...(payload ? { payload } : {}), ...(tenantId ? { tenantId } : {}) });
  const post = async (url: string, payload: object) => dataOf(await send('POST', url, payload));
  const get = async (url: string) => dataOf(await send('GET', url));
  /** The job's passes until it has nothing more to do now (a pass adds a few entries at most). */
  const pass = async () => {
    for (let more = 0; more < 50 && (await runBackupCodes(env.ctx.database, box, quiet)) !== undefined; more++);
  };
  /** Polls the pool of lock `index` (running the job's pass each time, as its events would) until `done`. */
  const waitPool = (index: number, done: (pool: { available: number; installing: number; issued: number }) => boolean, timeoutMs = WAKES_MS) =>
    waitFor(async () => {
      await pass();
      return get(`/iot/v1/stay/backupCodePool?lockId=${lockId(index)}`);
    }, done, timeoutMs);
  // The stays job is not started in tests either: each poll runs its pass, as credential.sync would wake it.
  const waitReadiness = (id: number, readiness: string) => waitFor(async () => {
    await runStays(env.ctx.database, box, quiet);
    return get(`/iot/v1/stay/detail?id=${id}`);
  }, (stay) => stay.readiness === readiness, WAKES_MS);
  const codesOf = async (stayId: number) => {
    await pass();
    return get(`/iot/v1/stay/backupCodes?stayId=${stayId}`);
  };
  const walkIn = async (room: number, mobile = '13900000021') => {
    // A stay left active by a failed attempt of the test would overlap: end it.
    const query = new URLSearchParams({ ...rooms[room], current: '1', size: '50' });
    for (const old of (await get(`/iot/v1/stay/list?${query}`)).records) {
      if (old.state === 'CHECKED_IN') await post('/iot/v1/stay/checkOut', { id: old.id });
      if (old.state === 'BOOKED' && Date.parse(old.checkInAt) < Date.now() + HOUR) await post('/iot/v1/stay/cancel', { id: old.id });
    }
    const stay = await post('/iot/v1/stay/add', { room: rooms[room], guests: [{ name: '赵住客', mobile }], checkInAt: at(Date.now() - 60_000), checkOutAt: at(Date.now() + 24 * HOUR) });
    return post('/iot/v1/stay/checkIn', { id: stay.id });
  };
  const attempt = (index: number, password: string) => post('/iot/v1/simulator/attemptOpen', { lockId: lockId(index), method: 'password', password });
  const guestDigits = async (stayId: number, index: number) => {
    const door = (await get(`/iot/v1/stay/detail?id=${stayId}`)).doors.find((d: { lockId: number; released: boolean }) => d.lockId === lockId(index) && !d.released);
    return (await post('/iot/v1/operatePassword/reveal', { id: door.credentialId })).password as string;
  };
  /** Waits for the sleeping lock to start a sleep (a heartbeat, then its wake window over): about 7 s of sleep lie ahead. */
  const freshSleep = async () => {
    const beats = sleepy().acked;
    await waitFor(() => sleepy().acked, (acked) => acked > beats, 2 * HEARTBEAT_S * 1000);
    await waitFor(() => sleepy().asleep, (asleep) => asleep, HEARTBEAT_S * 1000);
  };

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0], outbox: { awakeMs: PLATFORM_AWAKE_MS, responseTimeoutMs: 4000 } });
    token = await signIn(env.ctx.app);
    for (const index of [0, 1, 2]) await env.ctx.database.system.update(locks).set(rooms[index] as object).where(eq(locks.id, lockId(index)));
    // Only these three locks have a room in data centre 100 (the others' pools would wait for locks that never connect).
    await env.ctx.database.system.update(locks).set({ room: '' }).where(and(eq(locks.tenantId, 100), inArray(locks.id, env.devices.slice(3).map((device) => device.lockId))));
    await env.ctx.database.system.update(deviceTypes).set({ backupCodePool: POOL }).where(eq(deviceTypes.tenantId, 100));
    expect(env.devices[1]?.alwaysOnline).toBe(false);
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 2) as never, heartbeatS: HEARTBEAT_S, wakeWindowMs: WAKE_MS, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    attachSimulator(env.ctx.app, fleet);
    await waitFor(() => fleet.devices.every((device) => device.acked > 0), (ok) => ok);
  });
  afterAll(async () => {
    await fleet?.stop();
    await env?.close();
  });

  it('fills the pool of each lock in a room through the outbox; the entries become 正常 (never shown)', async () => {
    expect(await get(`/iot/v1/stay/backupCodePool?lockId=${lockId(1)}`)).toMatchObject({ lockId: lockId(1), size: POOL, failed: 0, issued: 0 });
    await pass();
    const filled = await get(`/iot/v1/stay/backupCodePool?lockId=${lockId(1)}`);
    expect(filled.installing + filled.available).toBe(POOL);
    // Each entry: an expiringUser (activated by its first use) holding a password whose digits are sealed.
    const entries = await env.ctx.database.system.select().from(backupCodes).where(eq(backupCodes.lockId, lockId(1)));
    expect(entries).toHaveLength(POOL);
    const users = await env.ctx.database.system.select().from(lockUsers).where(inArray(lockUsers.id, entries.map((entry) => entry.lockUserId)));
    expect(users.every((user) => user.userType === 'expiringUser' && user.expiringMinutes === 1440 && user.createdBy === 'system:backupCodes')).toBe(true);
    const secrets = await env.ctx.database.system.select({ enc: credentials.secretEnc }).from(credentials).where(inArray(credentials.id, entries.map((entry) => entry.credentialId)));
    expect(secrets.every((row) => row.enc && !/^\d+$/.test(row.enc))).toBe(true);
    // A second pass adds nothing; the sleeping lock takes the entries at its next wake.
    await pass();
    expect(await env.ctx.database.system.select().from(backupCodes).where(eq(backupCodes.lockId, lockId(1)))).toHaveLength(POOL);
    await waitPool(1, (pool) => pool.available === POOL);
    await waitPool(0, (pool) => pool.available === POOL);
    // Lock 2 never answers: its entries stay on their way.
    expect(await get(`/iot/v1/stay/backupCodePool?lockId=${lockId(2)}`)).toMatchObject({ available: 0, installing: POOL });
    // The device type says the size (0..10).
    const types = await get('/iot/v1/equipmentType/list?kind=lock&size=50');
    expect(types.records.every((type: { backupCodePool: number }) => type.backupCodePool === POOL)).toBe(true);
    const { id, deviceCount: _n, createdAt: _c, vendor: _v, ...type } = types.records[0];
    const tooMany = await send('POST', '/iot/v1/equipmentType/update', { ...type, id, backupCodePool: 11 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors.map((error: { field: string }) => error.field)).toContain('body.backupCodePool');
  });

  let firstStay: number;
  let firstCode: Code;

  it('issues a backup code at check-in while the lock sleeps; the keypad accepts it; once the guest\'s code is 正常 it is deleted and the pool refilled', { timeout: 90_000 }, async () => {
    await freshSleep();
    const stay = await walkIn(1);
    firstStay = stay.id;
    expect(stay).toMatchObject({ state: 'CHECKED_IN', readiness: 'queued' });
    const issued = await post('/iot/v1/stay/backupCode', { stayId: stay.id });
    expect(issued.stayId).toBe(stay.id);
    expect(issued.codes).toHaveLength(1);
    firstCode = issued.codes[0];
    expect(firstCode).toMatchObject({ lockId: lockId(1), expiringMinutes: 1440, validUntil: at(Date.parse(stay.checkOutAt) + 30 * 60_000) });
    expect(firstCode.code).toMatch(/^\d{6,}$/);
    // Asked again: the same code, nothing more taken from the pool.
    const again = await post('/iot/v1/stay/backupCode', { stayId: stay.id, lockId: lockId(1) });
    expect(again.codes).toEqual([firstCode]);
    expect(await get(`/iot/v1/stay/backupCodePool?lockId=${lockId(1)}`)).toMatchObject({ available: POOL - 1, issued: 1 });
    // The lock is still asleep: the guest's own code is not on it yet, the backup code opens.
    const digits = await guestDigits(stay.id, 1);
    expect(sleepy().asleep).toBe(true);
    expect(await attempt(1, digits)).toMatchObject({ success: false, reason: 'unknown' });
    expect(await attempt(1, firstCode.code)).toMatchObject({ success: true });
    expect(await get(`/iot/v1/stay/backupCodes?stayId=${stay.id}`)).toEqual([expect.objectContaining({ id: firstCode.id, lockId: lockId(1), state: 'issued', issuedBy: 'admin', retiredAt: null, userState: 'normal' })]);

    // The lock wakes: the guest's code becomes 正常, the backup code is retired and its user deleted on the lock.
    await waitReadiness(stay.id, 'ready');
    const retired = await waitFor(() => codesOf(stay.id), (codes) => codes[0]?.userState === 'deleted', WAKES_MS);
    expect(retired[0]).toMatchObject({ state: 'retired', retireReason: 'synced' });
    expect(await attempt(1, firstCode.code)).toMatchObject({ success: false, reason: 'unknown' });
    expect(await attempt(1, digits)).toMatchObject({ success: true });
    // The pool is refilled, at a wake of the lock.
    await waitPool(1, (pool) => pool.available === POOL && pool.issued === 0);
    // Now that every door is ready, no backup code is needed.
    const ready = await send('POST', '/iot/v1/stay/backupCode', { stayId: stay.id });
    expect(ready.statusCode).toBe(409);
    expect(ready.json().errors[0]).toMatchObject({ field: 'body.stayId', message: { 'zh-CN': expect.stringContaining('无需备用密码'), 'en-US': expect.stringContaining('no backup code is needed') } });
    await post('/iot/v1/stay/checkOut', { id: stay.id });
  });

  it('retires an issued backup code when the stay checks out: the keypad refuses it after the lock\'s next wake', { timeout: 90_000 }, async () => {
    await freshSleep();
    const stay = await walkIn(1, '13900000022');
    const { codes } = await post('/iot/v1/stay/backupCode', { stayId: stay.id });
    expect(codes[0].code).not.toBe(firstCode.code);
    expect(await attempt(1, codes[0].code)).toMatchObject({ success: true });
    await post('/iot/v1/stay/checkOut', { id: stay.id });
    const [retired] = await codesOf(stay.id);
    expect(retired).toMatchObject({ state: 'retired', retireReason: 'ended' });
    expect(['deleting', 'deleted']).toContain(retired.userState);
    await waitFor(() => codesOf(stay.id), (list) => list[0]?.userState === 'deleted', WAKES_MS);
    expect(await attempt(1, codes[0].code)).toMatchObject({ success: false });
    // Not checked in any more: no backup code.
    const over = await send('POST', '/iot/v1/stay/backupCode', { stayId: stay.id });
    expect(over.statusCode).toBe(409);
    expect(over.json().errors[0]).toMatchObject({ field: 'body.stayId', message: { 'zh-CN': expect.stringContaining('已入住'), 'en-US': expect.stringContaining('checked-in') } });
  });

  it('refuses when no entry is ready, the stay is not checked in, or the lock is not the stay\'s; 400 on bad input', async () => {
    // Lock 2 never answered: its entries are not on the lock.
    const stuck = await walkIn(2, '13900000023');
    const empty = await send('POST', '/iot/v1/stay/backupCode', { stayId: stuck.id });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().errors[0]).toMatchObject({ field: 'body.lockId', message: { 'zh-CN': expect.stringContaining('没有可用的备用密码'), 'en-US': expect.stringContaining('no backup code ready') } });
    const outside = await send('POST', '/iot/v1/stay/backupCode', { stayId: stuck.id, lockId: lockId(1) });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().errors[0]).toMatchObject({ field: 'body.lockId', message: { 'en-US': expect.stringContaining('not a door') } });
    // A booked stay (not checked in yet).
    const booked = await post('/iot/v1/stay/add', { room: rooms[0], guests: [{ name: '钱住客', mobile: '13900000024' }], checkInAt: at(Date.now() + 10 * 24 * HOUR), checkOutAt: at(Date.now() + 11 * 24 * HOUR) });
    const early = await send('POST', '/iot/v1/stay/backupCode', { stayId: booked.id });
    expect(early.statusCode).toBe(409);
    expect(early.json().errors[0].field).toBe('body.stayId');
    // Bad input: 400 naming the fields, in both languages.
    const bad = await send('POST', '/iot/v1/stay/backupCode', { stayId: 'abc', lockId: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((error: { field: string }) => error.field)).toEqual(expect.arrayContaining(['body.stayId', 'body.lockId']));
    const badPool = await send('GET', '/iot/v1/stay/backupCodePool?lockId=x');
    expect(badPool.statusCode).toBe(400);
    expect(badPool.json().errors[0].field).toBe('query.lockId');
    expect((await send('POST', '/iot/v1/stay/backupCode', { stayId: 999_999 })).statusCode).toBe(404);
  });

  it('writes a system-log row for every issue, without the code', async () => {
    const rows = await env.ctx.database.system.select().from(auditLog).where(and(eq(auditLog.action, 'POST /iot/v1/stay/backupCode'), eq(auditLog.target, String(firstStay))));
    expect(rows.filter((row) => row.result === 'success').length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(rows)).not.toContain(firstCode.code);
  });

  it('keeps backup codes to their data centre', async () => {
    expect((await send('POST', '/iot/v1/stay/backupCode', { stayId: firstStay }, 101)).statusCode).toBe(404);
    expect((await send('GET', `/iot/v1/stay/backupCodes?stayId=${firstStay}`, undefined, 101)).statusCode).toBe(404);
    expect((await send('GET', `/iot/v1/stay/backupCodePool?lockId=${lockId(1)}`, undefined, 101)).statusCode).toBe(404);
  });
});
