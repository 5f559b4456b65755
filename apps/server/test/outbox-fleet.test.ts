/**
 * Command outbox with real simulated locks (apps/simulator) over the embedded broker, on PGlite and
 * PostgreSQL: config push and credential commands applied by the lock, a failure answered by it, a
 * sleeping NB-IoT lock served only after its next uplink, and a gateway restart resuming the queue.
 */
import { type Fleet, startFleet } from '@iot/simulator';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locks } from '../src/db/schema.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { commandRow, enqueue, type OutboxEnv, sleep, startOutboxEnv, waitFor, waitForState } from './outbox-support.js';

/** Simulated locks that never drop off the network on their own (outages are random per lock). */
const NO_OUTAGES = { flakyRatio: 0 };

/**
 * The simulated lock's wake window, ms. The platform's window starts at the uplink's commit, the
 * lock's at its send, so the platform assumes a shorter one (production: 2 s of 10 s; here 600 ms of
 * 1 s, since commits lag more on a loaded test machine).
 */
const WAKE_MS = 1000;
const PLATFORM_AWAKE_MS = WAKE_MS - 600;

describe.skipIf(skipSuite)('command outbox with simulated locks', () => {
  let env: OutboxEnv;
  let awakeFleet: Fleet;
  let sleepyFleet: Fleet;
  let token: string;
  const awake = () => awakeFleet.devices[0] as Fleet['devices'][number];
  const sleepy = () => sleepyFleet.devices[0] as Fleet['devices'][number];
  const lockIdOf = (index: number) => env.devices[index]?.lockId as number;

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0], outbox: { awakeMs: PLATFORM_AWAKE_MS, responseTimeoutMs: 4000 } });
    token = await signIn(env.ctx.app);
    const [online, sleeping] = env.devices;
    expect(online?.alwaysOnline).toBe(true);
    expect(sleeping?.alwaysOnline).toBe(false);
    awakeFleet = await startFleet({ brokerUrl: env.url, devices: [online as never], heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: NO_OUTAGES });
    sleepyFleet = await startFleet({ brokerUrl: env.url, devices: [sleeping as never], heartbeatS: 6, wakeWindowMs: WAKE_MS, firstHeartbeatWithinMs: 10, behaviour: NO_OUTAGES });
    await waitFor(() => awake().acked + sleepy().acked, (n) => n >= 2);
  });
  afterAll(async () => {
    await Promise.all([awakeFleet?.stop(), sleepyFleet?.stop()]);
    await env?.close();
  });

  it('pushes a configuration through the API: the lock applies it, answers and reports it', async () => {
    const command = dataOf(await call(env.ctx.app, token, { method: 'POST', url: '/iot/v1/lockConfig', payload: { lockId: lockIdOf(0), config: { volume: 30, autoLockS: 12 } } }));
    expect(command).toMatchObject({ type: 'configPush', state: 'QUEUED', createdBy: 'admin' });
    const done = await waitForState(env, command.id, 'SUCCESSFUL');
    expect(done.deliveredAt).not.toBeNull();
    expect(awake().lock.state.config).toMatchObject({ volume: 30, autoLockS: 12 });
    // The lock's configReport reaches locks.config (event uplink handler).
    await waitFor(async () => (await env.ctx.database.system.select({ config: locks.config }).from(locks).where(eq(locks.id, lockIdOf(0))))[0]?.config,
      (config) => (config as { volume?: number } | null)?.volume === 30);
  });

  it('adds a user, enrols a fingerprint (answered after the enrolment delay with its slot) and refuses an unknown password slot', async () => {
    const user = await enqueue(env, { lockId: lockIdOf(0), type: 'userOperation', data: { action: 'add', userSlot: 1, name: '张三' } });
    const finger = await enqueue(env, { lockId: lockIdOf(0), type: 'addFingerPrint', data: { userSlot: 1 } });
    const missing = await enqueue(env, { lockId: lockIdOf(0), type: 'foreverPassword', data: { action: 'delete', slot: 7 } });
    expect(await waitForState(env, user.id, 'SUCCESSFUL')).toMatchObject({ resultSlot: 1 });
    const enrolled = await waitForState(env, finger.id, 'SUCCESSFUL');
    expect(enrolled.resultSlot).toBe(0);
    expect((enrolled.completedAt as Date).getTime() - (enrolled.sentAt as Date).getTime()).toBeGreaterThanOrEqual(1400);
    expect(awake().lock.state.fingerprints.get(0)).toEqual({ userSlot: 1 });
    expect(await waitForState(env, missing.id, 'FAILED')).toMatchObject({ resultCode: 4 });
  });

  it('holds a command for a sleeping lock until its next uplink', async () => {
    // Asleep for about 5 s (6 s heartbeat, 1 s window): ample time to see the command held back, if
    // the sleep has just begun. So wait for a fresh heartbeat first, then for the lock to fall asleep
    // (it may already have been asleep for most of its cycle when this test starts).
    const beats = sleepy().acked;
    await waitFor(() => sleepy().acked, (acked) => acked > beats, 10_000);
    await waitFor(() => sleepy().asleep, (asleep) => asleep, 10_000);
    // The platform's window starts at the uplink's commit, which can lag the lock's send on a loaded
    // machine: wait until the platform, too, no longer counts the lock as awake.
    const platformAwake = async () => {
      const [row] = await env.ctx.database.system.select({ awake: sql<boolean>`${locks.lastUplinkAt} > now() - make_interval(secs => ${PLATFORM_AWAKE_MS / 1000})` })
        .from(locks).where(eq(locks.id, lockIdOf(1)));
      return row?.awake === true;
    };
    await waitFor(platformAwake, (awake) => !awake, 5000);
    expect(sleepy().asleep).toBe(true);
    const command = await enqueue(env, { lockId: lockIdOf(1), type: 'clockSync', data: { time: Date.now() } });
    await sleep(300);
    expect((await commandRow(env, command.id)).state).toBe('QUEUED');
    expect(sleepy().asleep).toBe(true);
    const done = await waitForState(env, command.id, 'SUCCESSFUL', 12_000);
    expect(done.attempts).toBe(1);
    expect(Math.abs(sleepy().lock.state.clockOffsetMs)).toBeLessThan(1000);
  });

  it('resumes after a restart: a queued command is sent and one SENT before the crash is retried', async () => {
    const port = env.gateway.port;
    await env.gateway.close();
    const queued = await enqueue(env, { lockId: lockIdOf(0), type: 'configPush', data: { config: { volume: 70 } } });
    const inFlight = await enqueue(env, { lockId: lockIdOf(0), type: 'configPush', data: { config: { language: 'en-US' } } });
    // As if the server died right after sending `inFlight`: SENT long ago, never answered.
    await env.ctx.database.system.execute(sql`update commands set state = 'SENT', attempts = 1, sent_at = now() - interval '1 hour' where id = ${inFlight.id}`);
    await sleep(300);
    expect((await commandRow(env, queued.id)).state).toBe('QUEUED');
    await env.startGateway(port);
    // The simulated lock reconnects by itself; the sweeper re-queues the stale command and sends both.
    const retried = await waitForState(env, inFlight.id, 'SUCCESSFUL', 15_000);
    expect(retried.attempts).toBe(2);
    expect((await waitForState(env, queued.id, 'SUCCESSFUL', 15_000)).attempts).toBe(1);
    expect(awake().lock.state.config).toMatchObject({ volume: 70, language: 'en-US' });
  });
});
