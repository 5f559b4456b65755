/**
 * API of the command outbox (下发日志, 门锁配置) on PGlite and PostgreSQL, without a gateway (commands
 * stay QUEUED unless a test moves them): validation, queue limit, list filters, one lock's queue,
 * cancel, the payload views with secrets masked, and tenant isolation (404 across tenants).
 */
import { protocol } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { call, dataOf, signIn, skipSuite, tableChecksum } from './helper.js';
import { enqueue, type OutboxEnv, TEST_SECRET_KEY } from './outbox-support.js';
import { createTestContext } from './helper.js';

describe.skipIf(skipSuite)('command API', () => {
  let env: OutboxEnv;
  let token: string;
  let ids: { a: number; b: number; c: number; other: number };
  const get = (url: string, tenantId = 100) => call(env.ctx.app, token, { method: 'GET', url, tenantId });
  const post = (url: string, payload: object, tenantId = 100) => call(env.ctx.app, token, { method: 'POST', url, payload, tenantId });
  const codeOf = (response: { json(): { code: string } }) => response.json().code;

  beforeAll(async () => {
    const ctx = await createTestContext({ SECRET_KEY: TEST_SECRET_KEY }, 10);
    env = { ctx } as OutboxEnv;
    token = await signIn(ctx.app);
    const rows = await ctx.database.system.select({ id: locks.id, tenantId: locks.tenantId }).from(locks).orderBy(locks.id);
    const mine = rows.filter((r) => r.tenantId === 100);
    ids = { a: mine[0]?.id as number, b: mine[1]?.id as number, c: mine[2]?.id as number, other: rows.find((r) => r.tenantId === 101)?.id as number };
  });
  afterAll(() => env?.ctx.close());

  it('queues a config push and a clock sync, returning the command', async () => {
    const pushed = dataOf(await post('/iot/v1/lockConfig', { lockId: ids.a, config: { volume: 20, language: 'en-US' } }));
    expect(pushed).toMatchObject({ lockId: ids.a, type: 'configPush', state: 'QUEUED', attempts: 0, maxAttempts: 3, data: { config: { volume: 20, language: 'en-US' } }, createdBy: 'admin' });
    expect(Date.parse(pushed.expiresAt) - Date.parse(pushed.createdAt)).toBe(protocol.COMMAND_TTL_MS);
    const synced = dataOf(await post('/iot/v1/lockDevice/clockSync', { lockId: ids.a }));
    expect(synced).toMatchObject({ type: 'clockSync', state: 'QUEUED' });
  });

  it('refuses bad bodies with 400 and another tenant\'s lock with 404, writing nothing', async () => {
    const before = await tableChecksum(env.ctx.database, ['commands']);
    for (const payload of [{ lockId: ids.a, config: {} }, { lockId: ids.a, config: { volume: 101 } }, { lockId: ids.a, config: { volume: 5 }, extra: 1 }, { config: { volume: 5 } }, { lockId: 'x', config: { volume: 5 } }]) {
      const response = await post('/iot/v1/lockConfig', payload);
      expect([JSON.stringify(payload), response.statusCode, codeOf(response)]).toEqual([JSON.stringify(payload), 400, 'VALIDATION_FAILED']);
    }
    expect((await post('/iot/v1/lockDevice/clockSync', {})).statusCode).toBe(400);
    expect(codeOf(await post('/iot/v1/lockConfig', { lockId: ids.other, config: { volume: 5 } }))).toBe('NOT_FOUND');
    expect((await post('/iot/v1/lockDevice/clockSync', { lockId: ids.other })).statusCode).toBe(404);
    expect((await post('/iot/v1/lockDevice/clockSync', { lockId: 999_999 })).statusCode).toBe(404);
    expect(await tableChecksum(env.ctx.database, ['commands'])).toBe(before);
  });

  it(`refuses the ${protocol.MAX_QUEUED_PER_DEVICE + 1}st queued command of a lock with 409 QUEUE_FULL`, async () => {
    for (let i = 0; i < protocol.MAX_QUEUED_PER_DEVICE; i++) dataOf(await post('/iot/v1/lockDevice/clockSync', { lockId: ids.b }));
    const before = await tableChecksum(env.ctx.database, ['commands']);
    const refused = await post('/iot/v1/lockConfig', { lockId: ids.b, config: { volume: 1 } });
    expect([refused.statusCode, codeOf(refused)]).toEqual([409, 'QUEUE_FULL']);
    expect(refused.json().message).toContain('20');
    expect(await tableChecksum(env.ctx.database, ['commands'])).toBe(before);
    // Another lock is not affected; a canceled command frees a place.
    dataOf(await post('/iot/v1/lockDevice/clockSync', { lockId: ids.c }));
    const queue = dataOf(await get(`/iot/v1/logDownCommand/simpleList?lockId=${ids.b}`));
    dataOf(await post('/iot/v1/logDownCommand/cancel', { id: queue.commands[0].id }));
    dataOf(await post('/iot/v1/lockDevice/clockSync', { lockId: ids.b }));
  });

  it('lists commands newest first with filters, and nothing of another tenant', async () => {
    const all = dataOf(await get('/iot/v1/logDownCommand/list?size=100'));
    expect(all.total).toBeGreaterThanOrEqual(24);
    expect(all.records[0].id).toBeGreaterThan(all.records[1].id);
    const imei = all.records.find((r: { lockId: number }) => r.lockId === ids.a).imei;
    const byLock = dataOf(await get(`/iot/v1/logDownCommand/list?keyword=${imei}&type=configPush`));
    expect(byLock.records.map((r: { type: string; imei: string }) => [r.type, r.imei])).toEqual([['configPush', imei]]);
    expect(dataOf(await get('/iot/v1/logDownCommand/list?state=CANCELED')).total).toBe(1);
    const future = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    expect(dataOf(await get(`/iot/v1/logDownCommand/list?startTime=${future}`)).total).toBe(0);
    expect(dataOf(await get('/iot/v1/logDownCommand/list', 101)).total).toBe(0);
    for (const bad of ['state=DONE', 'type=reboot', 'startTime=yesterday', `startTime=${future}&endTime=${encodeURIComponent(new Date().toISOString())}`]) {
      expect([bad, (await get(`/iot/v1/logDownCommand/list?${bad}`)).statusCode]).toEqual([bad, 400]);
    }
  });

  it('shows one lock\'s queue with reachability and the next expected wake-up', async () => {
    // Last heartbeat 100 s ago, an event uplink 20 s ago: the next wake is the next heartbeat.
    const [lock] = await env.ctx.database.system.update(locks)
      .set({ lastHeartbeatAt: sql`now() - interval '100 seconds'`, lastUplinkAt: sql`now() - interval '20 seconds'`, heartbeatIntervalS: 300 })
      .where(eq(locks.id, ids.a)).returning({ lastHeartbeatAt: locks.lastHeartbeatAt });
    const queue = dataOf(await get(`/iot/v1/logDownCommand/simpleList?lockId=${ids.a}`));
    expect(queue).toMatchObject({ lockId: ids.a, alwaysOnline: false, awake: false });
    expect(Date.parse(queue.nextWakeAt) - new Date(lock?.lastHeartbeatAt as Date).getTime()).toBe(300_000);
    expect(queue.commands.map((c: { type: string }) => c.type)).toEqual(['configPush', 'clockSync']);
    expect((await get(`/iot/v1/logDownCommand/simpleList?lockId=${ids.other}`)).statusCode).toBe(404);
    expect((await get('/iot/v1/logDownCommand/simpleList')).statusCode).toBe(400);
  });

  it('cancels only a queued command of the tenant', async () => {
    const command = dataOf(await post('/iot/v1/lockDevice/clockSync', { lockId: ids.c }));
    expect(codeOf(await post('/iot/v1/logDownCommand/cancel', { id: command.id }, 101))).toBe('NOT_FOUND');
    const canceled = dataOf(await post('/iot/v1/logDownCommand/cancel', { id: command.id }));
    expect(canceled).toMatchObject({ id: command.id, state: 'CANCELED' });
    expect(canceled.completedAt).not.toBeNull();
    const again = await post('/iot/v1/logDownCommand/cancel', { id: command.id });
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'COMMAND_NOT_QUEUED']);
    const sent = dataOf(await post('/iot/v1/lockDevice/clockSync', { lockId: ids.c }));
    await env.ctx.database.system.execute(sql`update commands set state = 'SENT', attempts = 1, sent_at = now() where id = ${sent.id}`);
    expect((await post('/iot/v1/logDownCommand/cancel', { id: sent.id })).statusCode).toBe(409);
    expect((await post('/iot/v1/logDownCommand/cancel', { id: 'abc' })).statusCode).toBe(400);
    expect((await post('/iot/v1/logDownCommand/cancel', { id: 999_999 })).statusCode).toBe(404);
  });

  it('shows the payload sent through the vendor and the ISP route with the password masked', async () => {
    const command = await enqueue(env, { lockId: ids.c, type: 'tempPassword', data: { action: 'add', slot: 4, password: '24681357', oneTime: true } });
    const queued = dataOf(await get(`/iot/v1/zg/logDownPara?id=${command.id}`));
    expect(queued).toMatchObject({ id: command.id, sent: false, message: { msgId: command.msgId, type: 'tempPassword', ts: null, data: { password: '********', slot: 4 } } });
    await env.ctx.database.system.execute(sql`update commands set state = 'SENT', attempts = 1, sent_at = now() where id = ${command.id}`);
    const vendor = dataOf(await get(`/iot/v1/zg/logDownPara?id=${command.id}`));
    const isp = dataOf(await get(`/iot/v1/isp/logDownPara?id=${command.id}`));
    expect(vendor.sent).toBe(true);
    expect(vendor.message.ts).toBe(Date.parse(isp.sentAt));
    expect(isp).toMatchObject({ topic: `zg/${command.imei}/down`, qos: 1, retain: false, attempts: 1, state: 'SENT' });
    expect(JSON.parse(isp.payload)).toEqual(vendor.message);
    expect(isp.bytes).toBe(Buffer.byteLength(isp.payload));
    const everything = JSON.stringify([vendor, isp, dataOf(await get('/iot/v1/logDownCommand/list?size=100'))]);
    expect(everything).not.toContain('24681357');
    expect((await get(`/iot/v1/isp/logDownPara?id=${command.id}`, 101)).statusCode).toBe(404);
    expect((await get('/iot/v1/zg/logDownPara?id=999999')).statusCode).toBe(404);
    expect((await get('/iot/v1/zg/logDownPara')).statusCode).toBe(400);
  });

  it('lists locks with their reported configuration and pending commands', async () => {
    await env.ctx.database.system.update(locks).set({ config: { volume: 55, language: 'zh-CN' } }).where(eq(locks.id, ids.a));
    const page = dataOf(await get('/iot/v1/lockConfigList?size=3'));
    expect(page).toMatchObject({ total: 8, size: 3 });
    const a = page.records.find((r: { id: number }) => r.id === ids.a);
    expect(a).toMatchObject({ config: { volume: 55, language: 'zh-CN' }, pending: 2, alwaysOnline: false, heartbeatIntervalS: 300 });
    expect(a.nextWakeAt).not.toBeNull();
    expect(page.records.find((r: { id: number }) => r.id === ids.b)).toMatchObject({ config: null, pending: 20 });
    const other = dataOf(await get('/iot/v1/lockConfigList', 101));
    expect(other.records.map((r: { id: number }) => r.id)).toContain(ids.other);
    expect(other.records.map((r: { id: number }) => r.id)).not.toContain(ids.a);
  });
});
