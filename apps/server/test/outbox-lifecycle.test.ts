/**
 * Command outbox over the real embedded broker with hand-driven MQTT locks, on PGlite and PostgreSQL:
 * QUEUED -> SENT -> DELIVERED -> SUCCESSFUL | FAILED, one in flight in order, TIMEOUT after retries,
 * EXPIRED, secrets encrypted at rest, and a lock cannot answer another lock's command.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { skipSuite } from './helper.js';
import {
  commandRow, enqueue, type OutboxEnv, type RawLock, rawLock, setLastUplink, sleep, startOutboxEnv, waitFor, waitForState,
} from './outbox-support.js';

describe.skipIf(skipSuite)('command outbox lifecycle (embedded broker, raw locks)', () => {
  let env: OutboxEnv;
  const raws: RawLock[] = [];
  const connect = async (index: number) => {
    const raw = await rawLock(env.url, env.devices[index] as never);
    raws.push(raw);
    return raw;
  };
  const lockId = (index: number) => env.devices[index]?.lockId as number;

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0, 1, 2, 3] });
  });
  afterEach(async () => {
    await Promise.all(raws.splice(0).map((raw) => raw.client.endAsync(true)));
  });
  afterAll(() => env?.close());

  it('sends to an always-online lock at once: SENT, DELIVERED on PUBACK, SUCCESSFUL on its result; the password is never stored in clear', async () => {
    const raw = await connect(0);
    const command = await enqueue(env, { lockId: lockId(0), type: 'foreverPassword', data: { action: 'add', slot: 3, password: '135790' } });
    expect(command).toMatchObject({ state: 'QUEUED', attempts: 0, data: { password: '******' } });
    const delivered = await waitForState(env, command.id, 'DELIVERED');
    expect(delivered.attempts).toBe(1);
    expect(delivered.sentAt).not.toBeNull();
    expect(raw.received).toHaveLength(1);
    expect(raw.received[0]).toMatchObject({ msgId: command.msgId, type: 'foreverPassword', data: { action: 'add', slot: 3, password: '135790' } });
    const stored = JSON.stringify(delivered.data);
    expect(stored).not.toContain('135790');
    expect(stored).toContain('"masked":"******"');

    await raw.answer(command.msgId, 0, { slot: 3, detail: 'ok' });
    const done = await waitForState(env, command.id, 'SUCCESSFUL');
    expect(done).toMatchObject({ resultCode: 0, resultSlot: 3, resultDetail: 'ok' });
    expect(done.completedAt).not.toBeNull();
  });

  it('marks FAILED when the lock answers a non-zero code', async () => {
    const raw = await connect(1);
    const command = await enqueue(env, { lockId: lockId(1), type: 'cardOperate', data: { action: 'add', cardNumber: 'A1B2C3D4' } });
    await waitFor(() => raw.received.length, (n) => n === 1);
    await raw.answer(command.msgId, 5, { detail: 'card table full' });
    expect(await waitForState(env, command.id, 'FAILED')).toMatchObject({ resultCode: 5, resultDetail: 'card table full' });
  });

  it('keeps one command in flight per lock and sends them oldest first', async () => {
    const raw = await connect(2);
    const ids = [];
    for (const volume of [10, 20, 30]) ids.push(await enqueue(env, { lockId: lockId(2), type: 'configPush', data: { config: { volume } } }));
    for (let i = 0; i < 3; i++) {
      await waitFor(() => new Set(raw.received.map((m) => m.msgId)).size, (n) => n === i + 1);
      await sleep(300); // three sweeps: nothing else goes out while this one is unanswered
      // A resend of the one in flight (its 1 s response timeout passed on a loaded machine) is no other command.
      expect([...new Set(raw.received.map((m) => m.msgId))]).toEqual(ids.slice(0, i + 1).map((c) => c.msgId));
      await raw.answer(ids[i]?.msgId as string);
    }
    for (const command of ids) await waitForState(env, command.id, 'SUCCESSFUL');
  });

  it('retries an unanswered command after the response timeout, then gives up with TIMEOUT', async () => {
    const raw = await connect(3);
    const command = await enqueue(env, { lockId: lockId(3), type: 'clockSync', data: { time: Date.now() }, maxAttempts: 2 });
    const row = await waitForState(env, command.id, 'TIMEOUT', 8000);
    expect(row.attempts).toBe(2);
    expect(row.completedAt).not.toBeNull();
    expect(raw.received.map((m) => m.msgId)).toEqual([command.msgId, command.msgId]);
    // clockSync carries the time of sending (the second send is later than the first).
    expect((raw.received[1]?.data.time as number) >= (raw.received[0]?.data.time as number)).toBe(true);
  });

  it('expires a queued command of a sleeping lock after its time to live', async () => {
    await setLastUplink(env, lockId(5), null);
    const command = await enqueue(env, { lockId: lockId(5), type: 'clockSync', data: { time: Date.now() }, ttlMs: 300 });
    const row = await waitForState(env, command.id, 'EXPIRED', 5000);
    expect(row.attempts).toBe(0);
  });

  it('ignores a result for another lock\'s command', async () => {
    await setLastUplink(env, lockId(6), null);
    const victim = await enqueue(env, { lockId: lockId(6), type: 'clockSync', data: { time: Date.now() } });
    await env.ctx.database.system.execute(sql`update commands set state = 'SENT', attempts = 1, sent_at = now() where id = ${victim.id}`);
    const intruder = await connect(0);
    await intruder.answer(victim.msgId, 0);
    expect((await commandRow(env, victim.id)).state).toBe('SENT');
  });
});
