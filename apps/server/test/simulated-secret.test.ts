/**
 * Resetting a simulated lock's secret: the gateway drops the lock's session on the
 * registry's `lock.secretReset` event, and the demo fleet, following the registry as demo/index.ts does
 * (followRegistry), gives the simulated lock a fresh secret it reconnects with. Without the demo's
 * follower the same lock stays refused: the test proves what the subscription does.
 */
import { type Fleet, startFleet } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followRegistry } from '../src/demo/index.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, sleep, startOutboxEnv, waitFor } from './outbox-support.js';

describe.skipIf(skipSuite)('reset secret of a simulated lock', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let token: string;
  let unfollow: (() => void) | undefined;
  const device = (index: number) => fleet.devices[index] as Fleet['devices'][number];
  const reset = async (index: number) =>
    dataOf(await call(env.ctx.app, token, { method: 'POST', url: '/iot/v1/lockDevice/resetSecret', payload: { id: env.devices[index]?.lockId } }));

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0, 1] });
    token = await signIn(env.ctx.app);
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 2) as never, heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    await waitFor(() => fleet.devices.every((d) => d.connected && d.acked > 0), (ok) => ok);
  });
  afterAll(async () => {
    unfollow?.();
    await fleet?.stop();
    await env?.close();
  });

  it('reconnects with the new secret when the simulator hears of it', async () => {
    unfollow = followRegistry(env.ctx.app, env.ctx.database, env.ctx.config, fleet);
    const issued = await reset(0);
    expect(issued.imei).toBe(device(0).imei);
    await waitFor(() => device(0).connected, (connected) => !connected, 5000); // the platform dropped the session
    await waitFor(() => device(0).connected, (connected) => connected, 15_000); // back, with the new secret
    expect(fleet.setSecret('000000000000000', 'x')).toBe(false);
  });

  it('stays refused with the old secret when nobody tells the simulator', async () => {
    unfollow?.();
    unfollow = undefined;
    await reset(1);
    await waitFor(() => device(1).connected, (connected) => !connected, 5000);
    await sleep(6000); // longer than the longest reconnect period (5 s)
    expect(device(1).connected).toBe(false);
  });
});
