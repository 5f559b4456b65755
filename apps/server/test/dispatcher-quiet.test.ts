/**
 * The command dispatcher's wakes cost nothing while nothing is queued (a lock's every uplink
 * wakes it): after a due pass that found no QUEUED command, a wake makes no query; a command queued
 * afterwards (its `command.queued` event) is still sent at once. PGlite and PostgreSQL.
 */
import type { protocol } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto/secret-box.js';
import type { Database } from '../src/db/client.js';
import { locks } from '../src/db/schema.js';
import { silentLog } from '../src/gateway/log.js';
import { type Dispatcher, startDispatcher } from '../src/gateway/outbox/dispatcher.js';
import { commandFollowers } from '../src/wiring.js';
import { createTestContext, skipSuite, type TestContext } from './helper.js';
import { enqueue, TEST_SECRET_KEY, waitFor } from './outbox-support.js';

describe.skipIf(skipSuite)('command dispatcher with nothing queued', () => {
  let ctx: TestContext;
  let dispatcher: Dispatcher | undefined;
  let lockId: number;
  let statements = 0;
  const published: protocol.DownlinkMessage[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({ SECRET_KEY: TEST_SECRET_KEY }, 2);
    const [lock] = await ctx.database.system.select({ id: locks.id }).from(locks).where(eq(locks.tenantId, 100)).orderBy(locks.id).limit(1);
    lockId = lock?.id as number;
    await ctx.database.system.update(locks).set({ alwaysOnline: true }).where(eq(locks.id, lockId));
    await ctx.database.system.execute(sql`update commands set state = 'CANCELLED' where state = 'QUEUED'`);
  });
  afterAll(async () => {
    await dispatcher?.close();
    await ctx?.close();
  });

  it('makes no query on a wake, and still sends a command queued later', async () => {
    // The dispatcher's database handle counts its statements (execute and transaction calls).
    const system = new Proxy(ctx.database.system, {
      get(target, property, receiver) {
        if (property === 'execute' || property === 'transaction') statements++;
        return Reflect.get(target, property, receiver);
      },
    });
    const database = { ...ctx.database, system } as Database;
    dispatcher = startDispatcher({
      database, box: createSecretBox(Buffer.from(TEST_SECRET_KEY, 'hex')), log: silentLog, followers: commandFollowers, sweepIntervalMs: 600_000,
      transport: { async publish(_imei, message) { published.push(message); }, onDelivered() {}, isConnected: () => undefined },
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // the first due pass, at start
    await dispatcher.tick(); // and one more: nothing is queued
    statements = 0;
    for (let i = 0; i < 5; i++) dispatcher.wake([lockId]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statements).toBe(0);

    await enqueue({ ctx } as never, { lockId, type: 'configPush', data: { config: { volume: 2 } } });
    await waitFor(() => published.length, (n) => n === 1, 10_000);
    expect(published[0]?.type).toBe('configPush');
    expect(statements).toBeGreaterThan(0);
  });
});
