/**
 * Presence events of the open platform, on PGlite and PostgreSQL:
 * a lock's first stored heartbeat after being offline or unknown queues one `presence` online event;
 * the presence sweep queues one offline event when its heartbeats stop for ONLINE_HEARTBEAT_FACTOR
 * intervals, once however often it runs; the next heartbeat brings it online again. An operator's
 * acknowledgement of an alarm is pushed as an `alarm` event with state `acknowledged`.
 */
import type { protocol } from '@iot/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks, pushDeliveries } from '../src/db/schema.js';
import { simulatedImei } from '../src/demo/seed.js';
import { storeUplinks, type UplinkRecord } from '../src/gateway/uplink-store.js';
import { sweepPresence } from '../src/modules/lockDevice/presence.js';
import { presenceFollowers } from '../src/wiring.js';
import { rowsOf } from '../src/db/rows.js';
import { call, createTestContext, signIn, skipSuite, type TestContext } from './helper.js';
import { type PushReceiver, startPushReceiver } from './push-receiver.js';

describe.skipIf(skipSuite)('presence pushes', () => {
  let ctx: TestContext;
  let receiver: PushReceiver;
  let lock: { id: number; tenantId: number; imei: string };
  let seq = 70_000;
  let token: string;
  const post = (url: string, payload: object) => call(ctx.app, token, { method: 'POST', url, payload });
  beforeAll(async () => {
    ctx = await createTestContext({}, 3);
    receiver = await startPushReceiver();
    token = await signIn(ctx.app);
    expect((await post('/nbdev/customerCode', { customerCode: 'PRESENCE-1', name: 'Presence', contact: 'ops@example.com' })).statusCode).toBe(200);
    expect((await post('/nbdev/generateKey', { customerCode: 'PRESENCE-1' })).statusCode).toBe(200);
    const saved = await post('/nbdev/saveConfig', { customerCode: 'PRESENCE-1', url: receiver.url(), eventTypes: ['presence', 'alarm'] });
    expect(saved.statusCode, saved.body).toBe(200);
    lock = (await ctx.database.system.select({ id: locks.id, tenantId: locks.tenantId, imei: locks.imei }).from(locks).where(eq(locks.imei, simulatedImei(1))))[0] as typeof lock;
  });
  afterAll(async () => { await receiver?.close(); await ctx?.close(); });

  const heartbeat = (): UplinkRecord => {
    seq += 1;
    return { lockId: lock.id, tenantId: lock.tenantId, imei: lock.imei,
      message: { msgId: `pr-${seq}`, seq, type: 'heartbeat', ts: Date.now(), data: { battery: 80, rssi: -80, snr: 8, firmwareVersion: '1.0.0', intervalS: 30 } } as protocol.UplinkMessage };
  };
  const states = async () => (await ctx.database.system.select({ data: pushDeliveries.data }).from(pushDeliveries)
    .where(and(eq(pushDeliveries.lockId, lock.id), eq(pushDeliveries.eventType, 'presence'))).orderBy(asc(pushDeliveries.id)))
    .map((row) => (row.data as { state: string }).state);

  it('announces online once, offline once when heartbeats stop, and online again', async () => {
    await storeUplinks(ctx.database, [heartbeat()]);
    await storeUplinks(ctx.database, [heartbeat()]);
    expect(await states()).toEqual(['online']);
    expect(await sweepPresence(ctx.database, presenceFollowers)).toBe(0); // still beating
    // Silent for 3 intervals (the console's rule: 2.5).
    await ctx.database.system.execute(sql`update locks set last_heartbeat_at = now() - interval '90 seconds' where id = ${lock.id}`);
    expect(await sweepPresence(ctx.database, presenceFollowers)).toBeGreaterThanOrEqual(1);
    await sweepPresence(ctx.database, presenceFollowers);
    expect(await states()).toEqual(['online', 'offline']);
    await storeUplinks(ctx.database, [heartbeat()]);
    expect(await states()).toEqual(['online', 'offline', 'online']);
  });

  it('a redelivered heartbeat changes nothing: the lock stays offline, its last heartbeat time stays, nothing is pushed', async () => {
    const beat = heartbeat();
    await storeUplinks(ctx.database, [beat]);
    await ctx.database.system.execute(sql`update locks set last_heartbeat_at = now() - interval '90 seconds' where id = ${lock.id}`);
    await sweepPresence(ctx.database, presenceFollowers);
    const before = await states();
    expect(before.at(-1)).toBe('offline');
    const lastBeat = async () => (await ctx.database.system.select({ at: locks.lastHeartbeatAt, presence: locks.presence }).from(locks).where(eq(locks.id, lock.id)))[0];
    const stale = await lastBeat();
    // The broker delivers the same message again (QoS 1 after a lost PUBACK): same (lock, seq).
    expect(await storeUplinks(ctx.database, [beat])).toEqual({ inserted: 0 });
    expect(await lastBeat()).toEqual(stale);
    expect(await states()).toEqual(before);
    await storeUplinks(ctx.database, [heartbeat()]); // a new one does bring it online
    expect(await states()).toEqual([...before, 'online']);
  });


  it('pushes an operator\'s acknowledgement of an alarm in the acknowledging transaction', async () => {
    seq += 1;
    await storeUplinks(ctx.database, [{ lockId: lock.id, tenantId: lock.tenantId, imei: lock.imei,
      message: { msgId: `pr-${seq}`, seq, type: 'alarm', ts: Date.now(), data: { kind: 'tamper', detail: 'cover opened' } } as protocol.UplinkMessage }]);
    const [alert] = rowsOf<{ id: number }>(await ctx.database.system.execute(sql`select id from alerts where lock_id = ${lock.id} and kind = 'tamper' and state = 'active'`));
    expect((await post('/iot/v1/lockAlert/acknowledge', { ids: [alert?.id] })).statusCode).toBe(200);
    const alarms = (await ctx.database.system.select({ data: pushDeliveries.data }).from(pushDeliveries)
      .where(and(eq(pushDeliveries.lockId, lock.id), eq(pushDeliveries.eventType, 'alarm'))).orderBy(asc(pushDeliveries.id)))
      .map((row) => row.data as { state: string; acknowledgedBy?: string; imei: string });
    expect(alarms.map((a) => a.state)).toEqual(['raised', 'acknowledged']);
    expect(alarms[1]).toMatchObject({ acknowledgedBy: 'admin', imei: lock.imei });
  });
});
