/**
 * Retrying a stay's failed door (the door detail's 重试), on PGlite and PostgreSQL, with a
 * raw lock whose answers the test writes: the lock refuses the guest's user and password -> readiness
 * failed -> the stay is extended meanwhile (the failed user keeps the old window: the stay waits,
 * `pending`) -> the user and the password are retried through the credential service's retry routes
 * (the ids the door detail carries) -> 添加中, readiness queued, the stays job leaves the busy door ->
 * the lock confirms both -> the job moves the window (a user modify) -> ready, the user's window the
 * extended one.
 */
import type { protocol } from '@iot/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { locks, lockUsers, stays } from '../src/db/schema.js';
import { runStays } from '../src/modules/stay/job.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, type RawLock, rawLock, startOutboxEnv, TEST_SECRET_KEY, waitFor } from './outbox-support.js';

const HOUR = 3600_000;
const at = (ms: number) => new Date(ms).toISOString();
const quiet = { warn: () => {} };

describe.skipIf(skipSuite)('retrying a failed door of a stay', () => {
  let env: OutboxEnv;
  let raw: RawLock;
  let token: string;
  let room: { building: string; floor: string; room: string };
  const box = lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY });
  const send = (method: 'GET' | 'POST', url: string, payload?: object) => call(env.ctx.app, token, { method, url, ...(payload ? { payload } : {}) });
  const post = async (url: string, payload: object) => dataOf(await send('POST', url, payload));
  const detail = async (id: number) => dataOf(await send('GET', `/iot/v1/stay/detail?id=${id}`));
  /** The lock's `n`th downlink (1-based), once it has arrived. */
  const downlink = async (n: number): Promise<protocol.DownlinkMessage> => (await waitFor(() => raw.received, (list) => list.length >= n))[n - 1] as protocol.DownlinkMessage;
  const userRow = async (id: number) => (await env.ctx.database.system.select().from(lockUsers).where(eq(lockUsers.id, id)))[0];

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [3] });
    token = await signIn(env.ctx.app);
    const [lock] = await env.ctx.database.system.select().from(locks).where(eq(locks.id, env.devices[3]?.lockId as number));
    room = { building: lock?.building as string, floor: lock?.floor as string, room: lock?.room as string };
    raw = await rawLock(env.url, env.devices[3] as never);
  });
  afterAll(async () => {
    await raw?.client.endAsync().catch(() => {});
    await env?.close();
  });

  it('a failed door retried from its ids: the lock confirms, the stay follows its edit and is ready', async () => {
    const now = Date.now();
    const checkOut = now + 24 * HOUR;
    // Check-in in 10 minutes: inside the lead time, so the door is issued at once.
    const stay = await post('/iot/v1/stay/add', { room, guests: [{ name: '林重试', mobile: '13900000031' }], checkInAt: at(now + 10 * 60_000), checkOutAt: at(checkOut) });
    const userAdd = await downlink(1);
    expect(userAdd).toMatchObject({ type: 'userOperation', data: { action: 'add' } });
    await raw.answer(userAdd.msgId, 5, { detail: 'user table full' });
    const passwordAdd = await downlink(2);
    expect(passwordAdd).toMatchObject({ type: 'foreverPassword', data: { action: 'add' } });
    await raw.answer(passwordAdd.msgId, 5);
    const failed = await waitFor(() => detail(stay.id), (s) => s.readiness === 'failed');
    const [door] = failed.doors;
    expect(door).toMatchObject({ userState: 'add_failed', credentialState: 'add_failed', released: false });
    expect(failed.failedDoors).toBe(1);

    // Extended while failed: the failed user keeps its old window, so the stay waits to move it.
    const extended = await post('/iot/v1/stay/edit', { id: stay.id, checkOutAt: at(checkOut + 2 * HOUR) });
    expect(extended.readiness).toBe('failed');
    expect((await env.ctx.database.system.select({ pending: stays.pending }).from(stays).where(eq(stays.id, stay.id)))[0]?.pending).toBe(true);

    // 重试: the user, then the password, by the ids of the door detail.
    expect((await post('/iot/v1/operateUser/retry', { id: door.lockUserId })).syncState).toBe('adding');
    expect((await post('/iot/v1/operatePassword/retry', { id: door.credentialId })).syncState).toBe('adding');
    expect(await detail(stay.id)).toMatchObject({ readiness: 'queued', failedDoors: 0, doors: [{ userState: 'adding', credentialState: 'adding' }] });
    // The stays job treats the retried user as busy: nothing is sent, the stay stays pending.
    await runStays(env.ctx.database, box, quiet);
    const userRetry = await downlink(3);
    expect(userRetry).toMatchObject({ type: 'userOperation', data: { action: 'add' } });
    await raw.answer(userRetry.msgId, 0);
    const passwordRetry = await downlink(4);
    expect(passwordRetry).toMatchObject({ type: 'foreverPassword', data: { action: 'add' } });
    await raw.answer(passwordRetry.msgId, 0);
    await waitFor(() => userRow(door.lockUserId), (user) => user?.syncState === 'normal');
    expect(raw.received).toHaveLength(4);

    // The add settled: the job sends the extension (a user modify) and the stay is ready once it is confirmed.
    await runStays(env.ctx.database, box, quiet);
    const modify = await downlink(5);
    expect(modify).toMatchObject({ type: 'userOperation', data: { action: 'modify' } });
    await raw.answer(modify.msgId, 0);
    const ready = await waitFor(async () => {
      await runStays(env.ctx.database, box, quiet);
      return detail(stay.id);
    }, (s) => s.readiness === 'ready');
    expect(ready.doors).toMatchObject([{ userState: 'normal', credentialState: 'normal', lockUserId: door.lockUserId, credentialId: door.credentialId }]);
    expect((await userRow(door.lockUserId))?.validTo?.toISOString()).toBe(at(Math.floor((checkOut + 2 * HOUR + 30 * 60_000) / 60_000) * 60_000));
    await post('/iot/v1/stay/cancel', { id: stay.id });
  });
});
