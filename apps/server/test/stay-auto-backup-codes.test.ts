/**
 * Backup codes issued by the platform by rule (docs/stays.md "Automatic backup codes") with
 * real simulated locks, on PGlite and PostgreSQL. Room BA has a sleeping lock (pool filled through the
 * outbox, entries 正常) and a lock that never answers (its entries never ready). Setting off: a
 * checked-in stay whose own code is queued gets nothing. Turned on (system log before -> after, the
 * other data centre keeps its own): the job's pass issues one code on the sleeping lock and skips the
 * other without error; a system-log row names stay and lock, never the digits; the manual route gives
 * the same digits; the keypad accepts them; once the guest's code is 正常 the code is retired. A walk-in
 * checked in with the setting on gets its code at the next pass; check-out retires it. Bad input: 400.
 */
import { BACKUP_CODE_AUTO_ACTION } from '@iot/contract';
import { type Fleet, startFleet } from '@iot/simulator';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { auditLog, deviceTypes, locks } from '../src/db/schema.js';
import { runBackupCodes } from '../src/modules/backupCode/job.js';
import { attachSimulator } from '../src/demo/keypad.js';
import { runStays } from '../src/modules/stay/job.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, startOutboxEnv, TEST_SECRET_KEY, waitFor } from './outbox-support.js';

const HOUR = 3600_000;
const SETTINGS = '/iot/v1/tenant/settings';
const at = (ms: number) => new Date(ms).toISOString();
const quiet = { warn: () => {} };
/** As stay-backup-codes.test.ts: the sleeping lock's wake window, heartbeat (about 7 s of sleep), pool size, two wakes. */
const WAKE_MS = 3000;
const HEARTBEAT_S = 10;
const POOL = 2;
const WAKES_MS = 3 * HEARTBEAT_S * 1000;
const room = { building: '自动楼', floor: 'A1', room: 'BA-1' };

describe.skipIf(skipSuite)('backup codes issued by rule', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let token: string;
  const box = lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY });
  // Lock 1 sleeps between heartbeats, lock 2 has no simulator and never answers: both in room BA-1.
  const lockId = (index: number) => env.devices[index]?.lockId as number;
  const sleepy = () => fleet.devices.find((device) => device.imei === env.devices[1]?.imei) as Fleet['devices'][number];
  const send = (method: 'GET' | 'POST', url: string, payload?: object, tenantId?: number) =>
    call(env.ctx.app, token, { method, url, ...(payload ? { payload } : {}), ...(tenantId ? { tenantId } : {}) });
  const post = async (url: string, payload: object) => dataOf(await send('POST', url, payload));
  const get = async (url: string, tenantId?: number) => dataOf(await send('GET', url, undefined, tenantId));
  /** The job's passes until it has nothing more to do now; a pass that throws fails the test. */
  const pass = async () => {
    for (let more = 0; more < 50 && (await runBackupCodes(env.ctx.database, box, { warn: (fields) => { throw Object.assign(new Error('job warned'), fields); } })) !== undefined; more++);
  };
  const codesOf = async (stayId: number) => {
    await pass();
    return get(`/iot/v1/stay/backupCodes?stayId=${stayId}`);
  };
  const autoRows = (stayId: number) => env.ctx.database.system.select().from(auditLog)
    .where(and(eq(auditLog.action, BACKUP_CODE_AUTO_ACTION), eq(auditLog.target, String(stayId))));
  const walkIn = async (mobile: string) => {
    const stay = await post('/iot/v1/stay/add', { room, guests: [{ name: '孙住客', mobile }], checkInAt: at(Date.now() - 60_000), checkOutAt: at(Date.now() + 24 * HOUR) });
    return post('/iot/v1/stay/checkIn', { id: stay.id });
  };
  const attempt = (password: string) => post('/iot/v1/simulator/attemptOpen', { lockId: lockId(1), method: 'password', password });
  /** Waits for the sleeping lock to start a sleep: about 7 s of sleep lie ahead. */
  const freshSleep = async () => {
    const beats = sleepy().acked;
    await waitFor(() => sleepy().acked, (acked) => acked > beats, 2 * HEARTBEAT_S * 1000);
    await waitFor(() => sleepy().asleep, (asleep) => asleep, HEARTBEAT_S * 1000);
  };

  beforeAll(async () => {
    env = await startOutboxEnv({ outbox: { awakeMs: WAKE_MS - 600, responseTimeoutMs: 4000 } });
    token = await signIn(env.ctx.app);
    await env.ctx.database.system.update(locks).set(room).where(inArray(locks.id, [lockId(1), lockId(2)]));
    await env.ctx.database.system.update(locks).set({ room: '' }).where(and(eq(locks.tenantId, 100), notInArray(locks.id, [lockId(1), lockId(2)])));
    await env.ctx.database.system.update(deviceTypes).set({ backupCodePool: POOL }).where(eq(deviceTypes.tenantId, 100));
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(1, 2) as never, heartbeatS: HEARTBEAT_S, wakeWindowMs: WAKE_MS, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    attachSimulator(env.ctx.app, fleet);
    await waitFor(() => fleet.devices.every((device) => device.acked > 0), (ok) => ok);
    // The sleeping lock's pool becomes 正常 at its wakes; lock 2's stays on its way.
    await waitFor(async () => {
      await runBackupCodes(env.ctx.database, box, quiet);
      return get(`/iot/v1/stay/backupCodePool?lockId=${lockId(1)}`);
    }, (pool) => pool.available === POOL, WAKES_MS);
  }, 90_000);
  afterAll(async () => {
    await fleet?.stop();
    await env?.close();
  });

  let stayId: number;

  it('is off by default in every data centre', async () => {
    for (const tenantId of [100, 101]) expect(await get(SETTINGS, tenantId)).toMatchObject({ tenantId, stayAutoBackupCode: false });
  });

  it('off: a stay whose own code is queued gets nothing; turned on: one code per waiting lock with a ready entry, audited; the front desk sees the same digits; retired once the own code is 正常', { timeout: 90_000 }, async () => {
    await freshSleep();
    const stay = await walkIn('13900000031');
    stayId = stay.id;
    expect(stay).toMatchObject({ state: 'CHECKED_IN', readiness: 'queued' });
    expect(await codesOf(stayId)).toEqual([]);
    expect(await autoRows(stayId)).toEqual([]);
    expect(await post(SETTINGS, { stayAutoBackupCode: true })).toMatchObject({ tenantId: 100, stayAutoBackupCode: true });
    expect(await get(SETTINGS, 101)).toMatchObject({ tenantId: 101, stayAutoBackupCode: false });
    const log = dataOf(await send('GET', '/iot/v1/SysOperateLog/getLogList?action=POST%20%2Fiot%2Fv1%2Ftenant%2Fsettings')).records;
    expect(log.find((row: { result: string }) => row.result === 'success')?.changes).toEqual({ stayAutoBackupCode: [false, true] });
    // Still checked in with lock 1 asleep: the next pass issues on lock 1 and skips lock 2 (no entry ready) without error.
    const codes = await codesOf(stayId);
    expect(codes).toEqual([expect.objectContaining({ lockId: lockId(1), state: 'issued', issuedBy: 'system:backupCodes' })]);
    expect(await get(`/iot/v1/stay/backupCodePool?lockId=${lockId(1)}`)).toMatchObject({ issued: 1 });
    // The front desk asks: the same code (lock 2 named alone still has none: 409 as before).
    const shown = (await post('/iot/v1/stay/backupCode', { stayId, lockId: lockId(1) })).codes[0];
    expect(shown).toMatchObject({ id: codes[0].id, lockId: lockId(1), issuedBy: 'system:backupCodes' });
    expect((await post('/iot/v1/stay/backupCode', { stayId, lockId: lockId(1) })).codes).toEqual([shown]);
    const none = await send('POST', '/iot/v1/stay/backupCode', { stayId });
    expect([none.statusCode, none.json().errors[0].field]).toEqual([409, 'body.lockId']);
    expect(sleepy().asleep).toBe(true);
    expect(await attempt(shown.code)).toMatchObject({ success: true });
    // Audited once, naming the stay and lock, never the digits; a second pass issues nothing more.
    await pass();
    const rows = await autoRows(stayId);
    expect(rows).toEqual([expect.objectContaining({ tenantId: 100, username: 'system:backupCodes', result: 'success', detail: expect.objectContaining({ stayId, lockId: lockId(1) }) })]);
    expect(JSON.stringify(rows)).not.toContain(shown.code);
    expect(await get(`/iot/v1/stay/backupCodes?stayId=${stayId}`)).toHaveLength(1);
    // Lock 1 wakes: the guest's code there is 正常 and the code is retired (lock 2 never answers: no code, no error).
    const retired = await waitFor(async () => {
      await runStays(env.ctx.database, box, quiet);
      return codesOf(stayId);
    }, (list) => list[0]?.state === 'retired', WAKES_MS);
    expect(retired).toEqual([expect.objectContaining({ state: 'retired', retireReason: 'synced' })]);
    await post('/iot/v1/stay/checkOut', { id: stayId });
  });

  it('issues at check-in while the lock sleeps; check-out retires it', { timeout: 90_000 }, async () => {
    await waitFor(async () => {
      await pass();
      return get(`/iot/v1/stay/backupCodePool?lockId=${lockId(1)}`);
    }, (pool) => pool.available > 0, WAKES_MS);
    await freshSleep();
    const stay = await walkIn('13900000032');
    const [code] = await codesOf(stay.id);
    expect(code).toMatchObject({ lockId: lockId(1), state: 'issued', issuedBy: 'system:backupCodes' });
    expect(await autoRows(stay.id)).toHaveLength(1);
    await post('/iot/v1/stay/checkOut', { id: stay.id });
    expect((await codesOf(stay.id))[0]).toMatchObject({ state: 'retired', retireReason: 'ended' });
  });

  it('refuses a setting that is not a boolean (400 naming the field in both languages); keeps codes to their data centre', async () => {
    const bad = await send('POST', SETTINGS, { stayAutoBackupCode: 'yes' });
    expect(bad.statusCode).toBe(400);
    const error = bad.json().errors.find((e: { field: string }) => e.field === 'body.stayAutoBackupCode');
    expect(error?.message?.['zh-CN']).toMatch(/\S/);
    expect(error?.message?.['en-US']).toMatch(/\S/);
    expect((await send('GET', `/iot/v1/stay/backupCodes?stayId=${stayId}`, undefined, 101)).statusCode).toBe(404);
    expect(await get(SETTINGS, 101)).toMatchObject({ stayAutoBackupCode: false });
  });
});
