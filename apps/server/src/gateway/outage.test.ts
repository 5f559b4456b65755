/**
 * SIM_OUTAGES with sleeping locks ("SIM_OUTAGES=on showed no offline lock in 30 minutes"):
 * the demo's locks are NB-IoT sleepers, and a lock that woke for its heartbeat skipped what follows a
 * heartbeat (activity and outages). Now a sleeping flaky lock drops off, the presence sweep marks it
 * offline (the console's online rule), and it comes back.
 */
import { seededRandom, startFleet } from '@iot/simulator';
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { uplinks } from '../db/schema.js';
import { issueSimulatorCredentials } from '../modules/lockDevice/credentials.js';
import { sweepPresence } from '../modules/lockDevice/presence.js';
import { presenceFollowers } from '../wiring.js';
import { type Gateway, startGateway } from './index.js';
import { silentLog } from './log.js';
import * as fx from './test-support.js';

let database: Database;
let gateway: Gateway;
beforeAll(async () => {
  database = await fx.openSeededDatabase();
  gateway = await startGateway({ database, config: { MQTT_PORT: 0, HOST: '127.0.0.1', MQTT_URL: undefined }, log: silentLog });
});
afterAll(async () => {
  await gateway?.close();
  await database?.close();
});

describe('outages of sleeping simulated locks', () => {
  it('a sleeping lock reports its activity after a wake-up heartbeat, drops off, is swept offline and comes back', async () => {
    const [device] = await issueSimulatorCredentials(database);
    if (!device) throw new Error('no simulated lock');
    expect(device.alwaysOnline).toBe(false);
    // 3 s heartbeats, 300 ms wake window: it sleeps between beats; half of its heartbeats are followed by an outage of 4 intervals.
    const random = seededRandom(11);
    const fleet = await startFleet({
      brokerUrl: `mqtt://127.0.0.1:${gateway.port}`, devices: [{ ...device, heartbeatIntervalS: 3 }], wakeWindowMs: 300, firstHeartbeatWithinMs: 100, random,
      behaviour: { flakyRatio: 1, offlineProbability: 0.5, offlineIntervals: [4, 4] },
      activity: { openProbability: 1, failureRatio: 0, leftOpenProbability: 0, lockoutProbability: 0, tamperProbability: 0, lowBatteryRepeatEvery: 1000 },
    });
    const runner = fleet.devices[0];
    try {
      // The outage must come after the lock has slept once: before the fix a lock that had fallen asleep never dropped off.
      let sleptAt = 0;
      await expect.poll(() => {
        if (runner?.asleep && sleptAt === 0) sleptAt = Date.now();
        return sleptAt > 0 && runner?.offline;
      }, { timeout: 30_000, interval: 20 }).toBe(true);
      const row = await fx.lockRow(database, device.imei);
      // Silent for 2.5 intervals: the sweep marks it offline, as the console's online rule sees it.
      await expect.poll(async () => { await sweepPresence(database, presenceFollowers); return (await fx.lockRow(database, device.imei)).presence; }, { timeout: 12_000, interval: 200 })
        .toBe('offline');
      await expect.poll(async () => (await fx.lockRow(database, device.imei)).presence, { timeout: 15_000, interval: 100 }).toBe('online');
      // A lock woken for its heartbeat reports its activity too (unlock records after it slept).
      const opened = await database.system.select({ id: uplinks.id }).from(uplinks)
        .where(and(eq(uplinks.lockId, row.id), eq(uplinks.type, 'openRecord'), gt(uplinks.receivedAt, new Date(sleptAt))));
      expect(opened.length).toBeGreaterThan(0);
    } finally {
      await fleet.stop();
    }
  }, 90_000);
});
