/**
 * Credentials kept in sync with real simulated locks, on PGlite and PostgreSQL: sync states
 * driven by the commands (success, a failure answered by the lock, a timeout), retry and discard, the
 * lock enforcing what it holds (open attempts -> open records), masking + reveal with its system-log
 * row, who can open at T, fingerprint enrolment, offboarding and a lost card across two locks.
 */
import { failureReasonText } from '@iot/contract';
import { type Fleet, startFleet } from '@iot/simulator';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, credentials, lockUsers, openRecords } from '../src/db/schema.js';
import { attachSimulator } from '../src/demo/keypad.js';
import { call, dataOf, operatorWith, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, type RawLock, rawLock, startOutboxEnv, waitFor } from './outbox-support.js';

/** Simulated locks that never drop off the network on their own (outages are random per lock). */
const NO_OUTAGES = { flakyRatio: 0 };

const FUTURE = (ms: number) => new Date(Date.now() + ms).toISOString();
const HOUR = 3600_000;

describe.skipIf(skipSuite)('credential sync with simulated locks', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let raw: RawLock;
  let token: string;
  const lockId = (index: number) => env.devices[index]?.lockId as number;
  const post = async (url: string, payload: object) => dataOf(await call(env.ctx.app, token, { method: 'POST', url, payload }));
  const get = async (url: string) => dataOf(await call(env.ctx.app, token, { method: 'GET', url }));
  const credentialState = (id: number) => waitFor(async () => (await env.ctx.database.system.select().from(credentials).where(eq(credentials.id, id)))[0], () => true);
  const waitCredential = (id: number, state: string | undefined, timeoutMs = 10_000) =>
    waitFor(async () => (await env.ctx.database.system.select().from(credentials).where(eq(credentials.id, id)))[0]?.syncState, (s) => s === state, timeoutMs);
  const waitUser = (id: number, state: string | undefined) =>
    waitFor(async () => (await env.ctx.database.system.select().from(lockUsers).where(eq(lockUsers.id, id)))[0]?.syncState, (s) => s === state);
  const addUser = async (index: number, name: string, phone?: string) => {
    const user = await post('/iot/v1/zg/userOperation', { action: 'add', lockId: lockId(index), name, ...(phone ? { phone } : {}) });
    await waitUser(user.id, 'normal');
    return user;
  };

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0, 1, 2] });
    token = await signIn(env.ctx.app);
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 2) as never, heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: NO_OUTAGES });
    attachSimulator(env.ctx.app, fleet);
    raw = await rawLock(env.url, env.devices[2] as never);
    await waitFor(() => fleet.devices.every((d) => d.acked > 0), (ok) => ok);
  });
  afterAll(async () => {
    await raw?.client.endAsync().catch(() => {});
    await fleet?.stop();
    await env?.close();
  });

  it('adds a temp password that opens the door until deleted; secrets masked, reveal audited', async () => {
    const user = await addUser(0, '张三', '13800000001');
    const added = await post('/iot/v1/zg/tempPassword', { action: 'add', lockId: lockId(0), lockUserId: user.id, password: '482913', validTo: FUTURE(2 * HOUR) });
    expect(added).toMatchObject({ kind: 'tempPassword', syncState: 'adding', secret: '******', holderName: '张三' });
    await waitCredential(added.id, 'normal');
    const stored = await credentialState(added.id);
    expect(stored?.secretEnc).toMatch(/^v1\./);
    // Nothing but reveal shows the digits: lists, logs, the downlink log.
    for (const url of ['/iot/v1/operatePassword/list', '/iot/v1/operatePassword/log', '/iot/v1/logDownCommand/list?size=100']) {
      expect(JSON.stringify(await get(url))).not.toContain('482913');
    }
    const opened = await post('/iot/v1/simulator/attemptOpen', { lockId: lockId(0), method: 'password', password: '482913' });
    expect(opened).toMatchObject({ success: true, slot: added.slot, userSlot: user.userSlot });
    await waitFor(() => env.ctx.database.system.select().from(openRecords).where(and(eq(openRecords.lockId, lockId(0)), eq(openRecords.success, true))), (rows) => rows.length > 0);
    // whoCanOpen: now yes (with its holder), after the window no.
    const now = await get(`/iot/v1/lockDevice/whoCanOpen?lockId=${lockId(0)}`);
    expect(now.records.map((r: { id: number }) => r.id)).toContain(added.id);
    const later = await get(`/iot/v1/lockDevice/whoCanOpen?lockId=${lockId(0)}&at=${encodeURIComponent(FUTURE(3 * HOUR))}`);
    expect(later.records.map((r: { id: number }) => r.id)).not.toContain(added.id);
    // Reveal: digits with a system-log row; refused without the key.
    expect(await post('/iot/v1/operatePassword/reveal', { id: added.id })).toEqual({ id: added.id, password: '482913' });
    const audit = await env.ctx.database.system.select().from(auditLog).where(eq(auditLog.action, 'POST /iot/v1/operatePassword/reveal'));
    expect(audit.length).toBe(1);
    expect(JSON.stringify(audit)).not.toContain('482913');
    const manager = await operatorWith(env.ctx.app, token, 'pw-manager', ['VOUCHER_PASSWORD_MANAGE']);
    const refused = await call(env.ctx.app, manager.token, { method: 'POST', url: '/iot/v1/operatePassword/reveal', payload: { id: added.id } });
    expect(refused.statusCode).toBe(403);
    // Frozen user: refused; unfrozen: works again; deleted password: refused.
    await post('/iot/v1/zg/userOperation', { action: 'freeze', id: user.id });
    await waitUser(user.id, 'normal');
    expect(await post('/iot/v1/simulator/attemptOpen', { lockId: lockId(0), method: 'password', password: '482913' })).toMatchObject({ success: false, reason: 'frozen' });
    await post('/iot/v1/zg/userOperation', { action: 'unfreeze', id: user.id });
    await waitUser(user.id, 'normal');
    const deleting = await post('/iot/v1/zg/tempPassword', { action: 'delete', id: added.id });
    expect(deleting.syncState).toBe('deleting');
    await waitCredential(added.id, undefined);
    expect(await post('/iot/v1/simulator/attemptOpen', { lockId: lockId(0), method: 'password', password: '482913' })).toMatchObject({ success: false, reason: 'unknown' });
    const log = await get(`/iot/v1/operatePassword/log?lockId=${lockId(0)}`);
    expect(log.records.map((r: { action: string; commandState: string }) => [r.action, r.commandState])).toEqual([['delete', 'SUCCESSFUL'], ['add', 'SUCCESSFUL']]);
  });

  it('a one-time password opens once; a fingerprint is enrolled remotely with the slot the lock answers', async () => {
    const once = await post('/iot/v1/zg/tempPassword', { action: 'add', lockId: lockId(1), password: '7654321', oneTime: true });
    await waitCredential(once.id, 'normal');
    const attempt = { lockId: lockId(1), method: 'password', password: '7654321' };
    expect((await post('/iot/v1/simulator/attemptOpen', attempt)).success).toBe(true);
    expect(await post('/iot/v1/simulator/attemptOpen', attempt)).toMatchObject({ success: false, reason: 'used' });
    // Who can open: no longer once its use is reported; it still could just before the use.
    const openers = async (at?: string) => (await get(`/iot/v1/lockDevice/whoCanOpen?lockId=${lockId(1)}${at ? `&at=${encodeURIComponent(at)}` : ''}`))
      .records.map((r: { id: number }) => r.id);
    await waitFor(() => openers(), (ids) => !ids.includes(once.id));
    const [use] = await env.ctx.database.system.select().from(openRecords).where(and(eq(openRecords.lockId, lockId(1)), eq(openRecords.success, true)));
    expect(await openers(new Date(new Date(use?.lockTime as Date).getTime() - 1).toISOString())).toContain(once.id);
    const user = await addUser(1, '李四');
    const finger = await post('/iot/v1/zg/addFingerPrint', { action: 'add', lockId: lockId(1), lockUserId: user.id });
    expect(finger.slot).toBeNull();
    await waitCredential(finger.id, 'normal');
    const enrolled = await credentialState(finger.id);
    expect(enrolled?.slot).toBe(0);
    expect(await post('/iot/v1/simulator/attemptOpen', { lockId: lockId(1), method: 'fingerprint', fingerprintSlot: 0 })).toMatchObject({ success: true, userSlot: user.userSlot });
  });

  it('a failure answered by the lock -> add_failed, retried -> normal; a timeout -> add_failed, discarded', async () => {
    const card = await post('/iot/v1/zg/cardOperate', { action: 'add', lockId: lockId(2), cardNumber: 'A1B2C3D4', reversed: true });
    expect(card.records[0].syncState).toBe('adding');
    const id = card.records[0].id;
    await waitFor(() => raw.received.length, (n) => n >= 1);
    expect(raw.received[0]?.data).toMatchObject({ action: 'add', cardNumber: 'A1B2C3D4', reversed: true });
    await raw.answer(raw.received[0]?.msgId as string, 5, { detail: 'card table full' });
    await waitCredential(id, 'add_failed');
    // The row says why: the lock's answer code, translated by the contract.
    const failedRow = (await get(`/iot/v1/operateCard/list?lockId=${lockId(2)}`)).records.find((r: { id: number }) => r.id === id);
    expect(failedRow).toMatchObject({ syncState: 'add_failed', lastCommandState: 'FAILED', lastResultCode: 5 });
    expect(failureReasonText(failedRow.lastCommandState, failedRow.lastResultCode, 'zh-CN')).toBe('门锁存储已满');
    expect((await post('/iot/v1/operateCard/retry', { id })).syncState).toBe('adding');
    await waitFor(() => raw.received.length, (n) => n >= 2);
    await raw.answer(raw.received[1]?.msgId as string, 0, { slot: 0 });
    await waitCredential(id, 'normal');
    const again = await call(env.ctx.app, token, { method: 'POST', url: '/iot/v1/operateCard/retry', payload: { id } });
    expect(again.json().code).toBe('NOT_FAILED');
    // No answer at all: 3 attempts of 1 s, then TIMEOUT.
    const silent = await post('/iot/v1/zg/foreverPassword', { action: 'add', lockId: lockId(2), password: '112233' });
    await waitCredential(silent.id, 'add_failed', 15_000);
    const silentRow = (await get(`/iot/v1/operatePassword/list?lockId=${lockId(2)}`)).records.find((r: { id: number }) => r.id === silent.id);
    expect(failureReasonText(silentRow.lastCommandState, silentRow.lastResultCode, 'en-US')).toBe('The lock did not answer (timed out)');
    expect(await post('/iot/v1/operatePassword/discard', { id: silent.id })).toEqual({ id: silent.id });
    expect(await credentialState(silent.id)).toBeUndefined();
  });

  it('offboards a person across two locks and reports a card lost on every lock holding it', async () => {
    const users = [await addUser(0, '王五', '13900000009'), await addUser(1, '王五', '13900000009')];
    const cards = [];
    for (const index of [0, 1]) {
      const added = await post('/iot/v1/zg/cardOperate', { action: 'add', lockId: lockId(index), lockUserId: users[index].id, cardNumber: '0011AABB' });
      await waitCredential(added.records[0].id, 'normal');
      cards.push(added.records[0].id);
    }
    expect((await post('/iot/v1/simulator/attemptOpen', { lockId: lockId(0), method: 'card', cardNumber: '0011aabb' })).success).toBe(true);
    const lost = await post('/iot/v1/zg/cardOperate', { action: 'reportLost', cardNumber: 'BBAA1100', reversed: true });
    expect(lost.locks.map((l: { lockId: number }) => l.lockId).sort()).toEqual([lockId(0), lockId(1)].sort());
    for (const id of cards) await waitCredential(id, undefined);
    // The preview says what will go: both locks, one lock user each, no card left (reported lost).
    const preview = await get('/iot/v1/operateUser/offboardPreview?phone=13900000009');
    expect(preview.locks.map((l: { lockId: number }) => l.lockId).sort()).toEqual([lockId(0), lockId(1)].sort());
    expect(preview.locks.map((l: { users: unknown[]; cards: number }) => [l.users.length, l.cards])).toEqual([[1, 0], [1, 0]]);
    expect((await get('/iot/v1/operateUser/offboardPreview?phone=13000000000')).locks).toEqual([]);
    const nobody = await call(env.ctx.app, token, { method: 'POST', url: '/iot/v1/operateUser/offboard', payload: { phone: '13000000000' } });
    expect([nobody.statusCode, nobody.json().code, nobody.json().message]).toEqual([404, 'NOT_FOUND', '没有找到此人的门锁用户或凭证，无需注销']);
    const result = await post('/iot/v1/operateUser/offboard', { phone: '13900000009' });
    expect(result.locks).toHaveLength(2);
    const commandIds = result.locks.flatMap((l: { commands: { commandId: number }[] }) => l.commands.map((c) => c.commandId));
    await waitFor(() => post('/iot/v1/operateUser/commandStates', { commandIds }), (states) => states.every((s: { state: string }) => s.state === 'SUCCESSFUL'));
    for (const user of users) await waitUser(user.id, undefined);
    expect(fleet.devices.every((d) => [...d.lock.state.users.values()].every((u) => u.name !== '王五'))).toBe(true);
  });
});
