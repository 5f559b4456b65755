/**
 * The open platform on PGlite and PostgreSQL: customer codes, keys shown once with a
 * rotation grace, the verification handshake, pushes written in the event's transaction, signed with
 * the documented recipe, retried with backoff, dead letters, replay, endpoint pause and resume,
 * tenant isolation and the authority. The receiver is a real HTTP server (push-receiver.ts).
 */
import type { protocol } from '@iot/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { locks, pushDeliveries } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { storeUplinks, type UplinkRecord } from '../src/gateway/uplink-store.js';
import { egressPolicyOf } from '../src/modules/subscription/egress.js';
import { type DeliveryTuning, type DeliveryWorker, startDeliveryWorker } from '../src/modules/subscription/worker.js';
import { call, createTestContext, dataOf, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';
import { documentedCheck, type PushReceiver, startPushReceiver } from './push-receiver.js';

type Lock = { id: number; tenantId: number; imei: string };
const silent = { warn: () => {}, info: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(skipSuite)('open platform', () => {
  let ctx: TestContext;
  let token: string;
  let receiver: PushReceiver;
  let lockA: Lock;
  let seq = 1000;
  beforeAll(async () => {
    ctx = await createTestContext({}, 5);
    token = await signIn(ctx.app);
    receiver = await startPushReceiver();
    lockA = (await ctx.database.system.select({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei }).from(locks).where(eq(locks.imei, simulatedImei(0))))[0] as Lock;
  });
  afterAll(async () => { await receiver?.close(); await ctx?.close(); });

  const post = (url: string, payload: object, tenantId = 100) => call(ctx.app, token, { method: 'POST', url, payload, tenantId });
  const get = (url: string, tenantId = 100) => call(ctx.app, token, { method: 'GET', url, tenantId });
  const unlock = (lock: Lock): UplinkRecord => {
    seq += 1;
    return { lockId: lock.id, tenantId: lock.tenantId, imei: lock.imei, message: { msgId: `p-${seq}`, seq, type: 'openRecord', ts: Date.now(), data: { method: 'card', slot: 2, success: true, lockTime: Date.now() } } as protocol.UplinkMessage };
  };
  const worker = (tuning: DeliveryTuning = {}): DeliveryWorker =>
    startDeliveryWorker({ database: ctx.database, box: lazySecretBox(ctx.config), policy: egressPolicyOf(ctx.config), log: silent, pollMs: 60_000, ...tuning });
  /** Drains `w` until `done()` or `ms` pass. */
  const until = async (w: DeliveryWorker, done: () => Promise<boolean> | boolean, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > end) throw new Error('timed out');
      await w.drain();
      await sleep(20);
    }
  };
  const deliveriesOf = (code: string) => get(`/nbdev/delivery/list?customerCode=${code}&size=100`).then((r) => dataOf(r).records as Record<string, unknown>[]);

  async function subscribe(code: string, eventTypes = ['unlock', 'alarm', 'doorState']): Promise<string> {
    expect((await post('/nbdev/customerCode', { customerCode: code, name: `Customer ${code}`, contact: 'ops@example.com' })).statusCode).toBe(200);
    const key = await post('/nbdev/generateKey', { customerCode: code });
    expect(key.statusCode).toBe(200);
    const saved = await post('/nbdev/saveConfig', { customerCode: code, url: receiver.url(), eventTypes });
    expect(saved.statusCode, saved.body).toBe(200);
    return dataOf(key).secret as string;
  }

  it('shows a secret once, verifies the endpoint on save and refuses one that does not answer the challenge', async () => {
    const secret = await subscribe('ACME-1');
    expect(secret).toMatch(/^whsec_/);
    const verification = receiver.received.at(-1);
    expect(verification?.json.eventType).toBe('verification');
    expect(documentedCheck(verification?.headers ?? {}, verification?.body ?? '', secret)).toBe(true);
    const [code] = dataOf(await get('/nbdev/customerCode?keyword=ACME-1'));
    expect(code.keys).toHaveLength(1);
    expect(JSON.stringify(code)).not.toContain(secret); // never readable again
    expect(code.config).toMatchObject({ url: receiver.url(), eventTypes: ['unlock', 'alarm', 'doorState'], buildings: [] });
    const wrong = await post('/nbdev/saveConfig', { customerCode: 'ACME-1', url: receiver.url('/nochallenge'), eventTypes: ['unlock'] });
    expect(wrong.statusCode).toBe(400);
    expect(JSON.parse(wrong.body).errors[0].field).toBe('body.url');
    expect(dataOf(await get('/nbdev/getConfig?customerCode=ACME-1')).eventTypes).toEqual(['unlock', 'alarm', 'doorState']); // unchanged
  });

  it('pushes an unlock signed with the documented recipe, with a stable event id', async () => {
    const secret = (await post('/nbdev/generateKey', { customerCode: 'ACME-1', graceMinutes: 0 }).then(dataOf)).secret as string;
    await storeUplinks(ctx.database, [unlock(lockA)]);
    const w = worker();
    const before = receiver.accepted().length;
    await until(w, () => receiver.accepted().length > before);
    await w.close();
    const push = receiver.accepted().at(-1);
    expect(push?.json).toMatchObject({ eventType: 'unlock', customerCode: 'ACME-1', lock: { id: lockA.id, imei: lockA.imei }, data: { method: 'card', slot: 2, success: true } });
    expect(push?.headers['x-iot-event-id']).toBe(push?.json.eventId);
    expect(documentedCheck(push?.headers ?? {}, push?.body ?? '', secret)).toBe(true);
    const [delivery] = await deliveriesOf('ACME-1');
    expect(delivery).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200, eventId: push?.json.eventId, imei: lockA.imei });
  });

  it('writes nothing when the unlock batch rolls back', async () => {
    const count = async () => (await ctx.database.system.select().from(pushDeliveries)).length;
    const before = await count();
    const failing = { openRecord: async () => { throw new Error('disk full'); } };
    await expect(storeUplinks(ctx.database, [unlock(lockA)], failing)).rejects.toThrow('disk full');
    expect(await count()).toBe(before);
  });

  it('retries with backoff against a receiver failing 3 times, keeping the lock order, then drains', async () => {
    receiver.failNext(3);
    const first = unlock(lockA);
    const second = unlock(lockA);
    await storeUplinks(ctx.database, [first, second]);
    const w = worker({ scheduleMs: [100, 200, 400] });
    const start = receiver.received.length;
    await until(w, async () => (await deliveriesOf('ACME-1')).filter((d) => d.state === 'pending').length === 0);
    await w.close();
    const pushes = receiver.received.slice(start);
    expect(pushes.map((p) => (p.json.data as { seq: number }).seq)).toEqual([first.message.seq, first.message.seq, first.message.seq, first.message.seq, second.message.seq]);
    const gaps = pushes.slice(1, 4).map((p, i) => p.at - (pushes[i]?.at ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(80); // 100 ms ±20 %
    expect(gaps[1]).toBeGreaterThanOrEqual(160);
    expect(gaps[2]).toBeGreaterThanOrEqual(320);
    expect(new Set(pushes.slice(0, 4).map((p) => p.json.eventId)).size).toBe(1);
    const firstDelivery = (await deliveriesOf('ACME-1')).find((d) => (d.data as { seq: number }).seq === first.message.seq);
    expect(firstDelivery).toMatchObject({ state: 'delivered', attempts: 4, lastStatus: 200 });
  });

  it('makes a dead letter after the retry window, replays it with the same event id, and pauses a failing endpoint until resumed', async () => {
    receiver.failAll(true);
    await storeUplinks(ctx.database, [unlock(lockA)]);
    const w = worker({ scheduleMs: [50], retryWindowMs: 300, pauseAfterMs: 60_000 });
    await until(w, async () => (await deliveriesOf('ACME-1')).some((d) => d.state === 'dead'));
    await w.close();
    const dead = (await deliveriesOf('ACME-1')).find((d) => d.state === 'dead') as { id: number; eventId: string; lastStatus: number };
    expect(dead.lastStatus).toBe(503);
    const [code] = dataOf(await get('/nbdev/customerCode?keyword=ACME-1'));
    expect(code.health).toMatchObject({ dead: 1, consecutiveFailures: expect.any(Number), pausedAt: null });
    expect(code.health.failingSince).not.toBeNull();
    // Failing longer than pauseAfterMs: paused, nothing is sent.
    const paused: unknown[] = [];
    const stopListening = ctx.database.events.on('push.paused', (event) => { paused.push(event); });
    const pausing = worker({ scheduleMs: [10], pauseAfterMs: 1 });
    expect(dataOf(await post('/nbdev/delivery/replay', { ids: [dead.id] })).replayed).toBe(1);
    await until(pausing, async () => dataOf(await get('/nbdev/customerCode?keyword=ACME-1'))[0].health.pausedAt !== null);
    await expect.poll(() => paused).toEqual([{ tenantId: 100, customerCodeId: code.id }]); // once: notification rules hear of it
    stopListening();
    const sent = receiver.received.length;
    await pausing.drain();
    expect(receiver.received.length).toBe(sent);
    receiver.failAll(false);
    expect(dataOf(await post('/nbdev/resume', { customerCode: 'ACME-1' })).resumed).toBe(true);
    await until(pausing, async () => (await deliveriesOf('ACME-1')).filter((d) => d.state === 'pending').length === 0);
    await pausing.close();
    const replayed = (await deliveriesOf('ACME-1')).find((d) => d.replayOf === dead.id);
    expect(replayed).toMatchObject({ state: 'delivered', eventId: dead.eventId });
    expect(receiver.accepted().at(-1)?.json.eventId).toBe(dead.eventId);
  });

  it('signs with the old secret too during the rotation grace, and only the new one after', async () => {
    const old = (await post('/nbdev/generateKey', { customerCode: 'ACME-1', graceMinutes: 0 }).then(dataOf)).secret as string;
    const rotated = await post('/nbdev/generateKey', { customerCode: 'ACME-1', graceMinutes: 60 }).then(dataOf);
    expect(Date.parse(rotated.previousValidUntil) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(dataOf(await post('/nbdev/sendTest', { customerCode: 'ACME-1' })).eventId).toMatch(/^[0-9a-f-]{36}$/);
    const w = worker();
    const before = receiver.accepted().length;
    await until(w, () => receiver.accepted().length > before);
    const test = receiver.accepted().at(-1);
    expect(test?.json.eventType).toBe('test');
    expect(documentedCheck(test?.headers ?? {}, test?.body ?? '', old)).toBe(true);
    expect(documentedCheck(test?.headers ?? {}, test?.body ?? '', rotated.secret)).toBe(true);
    const newest = (await post('/nbdev/generateKey', { customerCode: 'ACME-1', graceMinutes: 0 }).then(dataOf)).secret as string;
    await post('/nbdev/sendTest', { customerCode: 'ACME-1' });
    await until(w, () => receiver.accepted().length > before + 1);
    await w.close();
    const after = receiver.accepted().at(-1);
    expect(documentedCheck(after?.headers ?? {}, after?.body ?? '', newest)).toBe(true);
    expect(documentedCheck(after?.headers ?? {}, after?.body ?? '', rotated.secret)).toBe(false);
    expect(String(after?.headers['x-iot-signature']).split(',')).toHaveLength(1);
  });

  it('keeps tenants apart and needs SUBSCRIPTIONMANAGEMENT', async () => {
    expect(dataOf(await get('/nbdev/customerCode', 101))).toEqual([]);
    expect((await get('/nbdev/getConfig?customerCode=ACME-1', 101)).statusCode).toBe(404);
    expect(dataOf(await get('/nbdev/delivery/list', 101)).total).toBe(0);
    const ids = (await deliveriesOf('ACME-1')).map((d) => d.id);
    expect(dataOf(await post('/nbdev/delivery/replay', { ids }, 101)).replayed).toBe(0);
    expect((await post('/nbdev/generateKey', { customerCode: 'ACME-1' }, 101)).statusCode).toBe(404);
    const taken = await post('/nbdev/customerCode', { customerCode: 'ACME-1', name: 'copy' }, 101);
    expect(taken.statusCode).toBe(400);
    const { token: operator } = await operatorWith(ctx.app, token, 'push-operator', ['LOOK_INFO']);
    expect((await call(ctx.app, operator, { method: 'GET', url: '/nbdev/customerCode' })).statusCode).toBe(403);
    const { token: allowed } = await operatorWith(ctx.app, token, 'push-manager', ['SUBSCRIPTIONMANAGEMENT']);
    expect((await call(ctx.app, allowed, { method: 'GET', url: '/nbdev/customerCode' })).statusCode).toBe(200);
  });

  it('exports the delivery log', async () => {
    const response = await get('/nbdev/delivery/export?customerCode=ACME-1&format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.body.split('\n')[0]).toContain('事件类型');
    expect(response.body).toContain('ACME-1');
  });
});
