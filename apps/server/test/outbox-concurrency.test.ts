/**
 * Two dispatchers (as two server instances) on one database, on PGlite and PostgreSQL: FOR UPDATE
 * SKIP LOCKED claims mean no command is ever sent twice, and each lock still gets its commands one
 * at a time in order. The transports are recorders whose "lock" answers every command at once.
 */
import type { protocol } from '@iot/contract';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto/secret-box.js';
import { commands, locks } from '../src/db/schema.js';
import { silentLog } from '../src/gateway/log.js';
import { type Dispatcher, startDispatcher } from '../src/gateway/outbox/dispatcher.js';
import type { DownlinkTransport } from '../src/gateway/transport.js';
import { applyCommandResults } from '../src/modules/command/lifecycle.js';
import { commandFollowers } from '../src/wiring.js';
import { createTestContext, rowsOf, skipSuite, type TestContext } from './helper.js';
import { enqueue, TEST_SECRET_KEY, waitFor } from './outbox-support.js';

const LOCKS = 4;
const PER_LOCK = 15;

describe.skipIf(skipSuite)('two dispatchers on one database', () => {
  let ctx: TestContext;
  let lockIds: number[];
  const sent: { instance: number; imei: string; msgId: string; inFlight: number }[] = [];
  const dispatchers: Dispatcher[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({ SECRET_KEY: TEST_SECRET_KEY }, 10);
    const rows = await ctx.database.system.select({ id: locks.id }).from(locks).where(sql`tenant_id = 100`).orderBy(locks.id).limit(LOCKS);
    lockIds = rows.map((row) => row.id);
    await ctx.database.system.update(locks).set({ alwaysOnline: true }).where(inArray(locks.id, lockIds));
  });
  afterAll(async () => {
    await Promise.all(dispatchers.map((d) => d.close()));
    await ctx?.close();
  });

  /** Answers each command after 5 ms and wakes every instance's dispatcher, as the result's event would across instances. */
  function answeringTransport(instance: number, getDispatchers: () => Dispatcher[]): DownlinkTransport {
    let seq = instance * 1_000_000;
    return {
      async publish(imei, message: protocol.DownlinkMessage) {
        const [flight] = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`
          select count(*)::int as n from commands c join locks l on l.id = c.lock_id where l.imei = ${imei} and c.state in ('SENT', 'DELIVERED')`));
        sent.push({ instance, imei, msgId: message.msgId, inFlight: flight?.n ?? -1 });
        setTimeout(() => {
          let lockId = 0;
          void ctx.database.transaction(async (tx) => {
            const [lock] = await rowsOf<{ id: number }>(tx.execute(sql`select id from locks where imei = ${imei}`));
            lockId = lock?.id as number;
            seq += 1;
            const result = { msgId: `r${seq}`, seq, type: 'commandResult' as const, ts: Date.now(), data: { commandMsgId: message.msgId, code: 0 } };
            await applyCommandResults(tx, [{ lockId, message: result }], commandFollowers);
          }).then(() => {
            // The lock's uplink wakes the dispatchers for it (an empty wake is a no-op); the other
            // instance hears first, as a pass claims until nothing is left.
            const all = getDispatchers();
            for (const dispatcher of [...all.filter((_, index) => index !== instance - 1), all[instance - 1]]) dispatcher?.wake([lockId]);
          });
        }, 5);
      },
      onDelivered() {},
      isConnected: () => undefined,
    };
  }

  it('sends each of many commands exactly once, one in flight per lock, in order', async () => {
    const ids: number[] = [];
    for (let i = 0; i < PER_LOCK; i++) {
      for (const lockId of lockIds) ids.push((await enqueue({ ctx } as never, { lockId, type: 'configPush', data: { config: { volume: i } } })).id);
    }
    const box = createSecretBox(Buffer.from(TEST_SECRET_KEY, 'hex'));
    for (const instance of [1, 2]) {
      const transport = answeringTransport(instance, () => dispatchers);
      dispatchers.push(startDispatcher({ database: ctx.database, transport, box, log: silentLog, followers: commandFollowers, sweepIntervalMs: 20, responseTimeoutMs: 60_000, batch: 1 }));
    }
    await waitFor(async () => rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from commands where state = 'SUCCESSFUL'`)),
      (rows) => rows[0]?.n === ids.length, 60_000);
    const msgIds = sent.map((s) => s.msgId);
    expect(new Set(msgIds).size).toBe(ids.length);
    expect(msgIds).toHaveLength(ids.length); // nothing sent twice
    expect(sent.every((s) => s.inFlight === 1)).toBe(true); // only the one being sent was in flight
    const rows = await ctx.database.system.select({ id: commands.id, msgId: commands.msgId, lockId: commands.lockId, attempts: commands.attempts }).from(commands);
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
    const idOf = new Map(rows.map((row) => [row.msgId, row.id]));
    for (const lockId of lockIds) {
      const order = sent.filter((s) => rows.find((r) => r.msgId === s.msgId)?.lockId === lockId).map((s) => idOf.get(s.msgId) as number);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    // Both instances took part (one claim per pass and a 20 ms sweep each: they interleave).
    expect(new Set(sent.map((s) => s.instance)).size).toBe(2);
  });
});
