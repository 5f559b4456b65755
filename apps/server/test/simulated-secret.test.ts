/**
 * Resetting a simulated lock's secret (issue #11): the in-process simulator learns the new secret and
 * the lock reconnects with it, wired as demo.ts and main.ts wire it (secret listener, session dropper).
 * Without the listener the same lock stays refused: the test proves what the wiring does.
 */
import { type Fleet, startFleet } from '@iot/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSecretListener, setSessionDropper } from '../src/modules/lockDevice/sessions.js';
import { call, dataOf, signIn, skipSuite } from './helper.js';
import { type OutboxEnv, sleep, startOutboxEnv, waitFor } from './outbox-support.js';

describe.skipIf(skipSuite)('reset secret of a simulated lock', () => {
  let env: OutboxEnv;
  let fleet: Fleet;
  let token: string;
  const device = (index: number) => fleet.devices[index] as Fleet['devices'][number];
  const reset = async (index: number) =>
    dataOf(await call(env.ctx.app, token, { method: 'POST', url: '/iot/v1/lockDevice/resetSecret', payload: { id: env.devices[index]?.lockId } }));

  beforeAll(async () => {
    env = await startOutboxEnv({ alwaysOnline: [0, 1] });
    token = await signIn(env.ctx.app);
    fleet = await startFleet({ brokerUrl: env.url, devices: env.devices.slice(0, 2) as never, heartbeatS: 60, firstHeartbeatWithinMs: 10, behaviour: { flakyRatio: 0 } });
    setSessionDropper((imei) => env.gateway.transport.disconnect?.(imei));
    await waitFor(() => fleet.devices.every((d) => d.connected && d.acked > 0), (ok) => ok);
  });
  afterAll(async () => {
    setSecretListener(undefined);
    setSessionDropper(undefined);
    await fleet?.stop();
    await env?.close();
  });

  it('reconnects with the new secret when the simulator hears of it', async () => {
    setSecretListener((imei, secret) => fleet.setSecret(imei, secret));
    const issued = await reset(0);
    expect(issued.imei).toBe(device(0).imei);
    await waitFor(() => device(0).connected, (connected) => !connected, 5000); // the platform dropped the session
    await waitFor(() => device(0).connected, (connected) => connected, 15_000); // back, with the new secret
    expect(fleet.setSecret('000000000000000', 'x')).toBe(false);
  });

  it('stays refused with the old secret when nobody tells the simulator', async () => {
    setSecretListener(undefined);
    await reset(1);
    await waitFor(() => device(1).connected, (connected) => !connected, 5000);
    await sleep(6000); // longer than the longest reconnect period (5 s)
    expect(device(1).connected).toBe(false);
  });
});
