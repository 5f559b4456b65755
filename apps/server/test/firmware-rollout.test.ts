/**
 * Rollouts end to end over the real gateway with simulated locks: each gate keeps a lock
 * WAITING (battery until a heartbeat above it), a canary that fails pauses the rollout before any other
 * lock hears of it, the automatic pause at the failure threshold, resume, cancel, retry of failed locks,
 * a sleeping lock that downloads over several wakes without ever restarting from zero, and a lock that
 * refuses a package altered on the platform (it checks the vendor signature before flashing).
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Fleet, startFleet } from '@iot/simulator';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { firmwareJobs, firmwarePackages, locks, uplinks } from '../src/db/schema.js';
import { skipSuite } from './helper.js';
import { act, addRollout, detail, type FirmwareEnv, image, startFirmwareEnv, upload } from './firmware-support.js';
import { waitFor } from './outbox-support.js';
import { dataOf } from './helper.js';

const NO_OUTAGES = { flakyRatio: 0, drainProbability: 0 };
/** 20,000 bytes: 10 chunks of 2048. */
const SIZE = 20_000;

describe.skipIf(skipSuite)('firmware rollouts', () => {
  let env: FirmwareEnv;
  let packageId: number;
  const fleets: Fleet[] = [];
  const nb100 = () => env.devices.filter((d) => d.model === 'ZG-NB100');
  const jobsOf = (rolloutId: number) => env.ctx.database.system.select().from(firmwareJobs).where(eq(firmwareJobs.rolloutId, rolloutId));
  const fleetOf = async (devices: typeof env.devices, options: Partial<Parameters<typeof startFleet>[0]> = {}) => {
    // Batteries above the default gate unless a test says otherwise (the simulator starts some locks low).
    const charged = devices.map((device) => ({ ...device, battery: device.battery ?? 80 }));
    const fleet = await startFleet({ brokerUrl: env.url, devices: charged, heartbeatS: 1, firstHeartbeatWithinMs: 10, behaviour: NO_OUTAGES, ...options });
    fleets.push(fleet);
    return fleet;
  };
  beforeAll(async () => {
    env = await startFirmwareEnv({ simLocks: 60 });
    packageId = dataOf(await upload(env, 'ZG-NB100', '2.5.0', image(SIZE))).id;
  });
  afterEach(async () => {
    await Promise.all(fleets.splice(0).map((fleet) => fleet.stop()));
  });
  afterAll(async () => env?.close());

  it('keeps a lock WAITING at each gate; the battery gate opens at a heartbeat above it', async () => {
    const [low, weak, late] = nb100().slice(0, 3) as typeof env.devices;
    const hour = new Date().getUTCHours();
    const closed = { start: `${String((hour + 2) % 24).padStart(2, '0')}:00`, end: `${String((hour + 3) % 24).padStart(2, '0')}:00` };
    const battery = await addRollout(env, { packageId, target: { kind: 'imeis', imeis: [low?.imei] }, minBattery: 30 });
    const rssi = await addRollout(env, { packageId, target: { kind: 'imeis', imeis: [weak?.imei] }, minRssi: -20 });
    const window = await addRollout(env, { packageId, target: { kind: 'imeis', imeis: [late?.imei] }, window: closed, timeZone: 'UTC' });
    for (const id of [battery, rssi, window]) expect((await act(env, 'start', id)).statusCode).toBe(200);
    const fleet = await fleetOf([{ ...low, battery: 10 }, weak, late] as typeof env.devices);
    for (const [id, gate] of [[battery, 'battery'], [rssi, 'rssi'], [window, 'window']] as const) {
      await waitFor(() => jobsOf(id), (jobs) => jobs[0]?.state === 'WAITING' && jobs[0]?.waitGate === gate);
    }
    // Several heartbeats later it still waits, then one heartbeat above the gate lets it go.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await jobsOf(battery))[0]?.state).toBe('WAITING');
    (fleet.devices[0] as { lock: { battery: number } }).lock.battery = 80;
    await waitFor(() => jobsOf(battery), (jobs) => jobs[0]?.state === 'UPDATED', 20_000);
    const [row] = await env.ctx.database.system.select({ v: locks.firmwareVersion }).from(locks).where(eq(locks.imei, low?.imei as string));
    expect(row?.v).toBe('2.5.0');
    expect((await detail(env, battery)).state).toBe('COMPLETED');
    for (const id of [rssi, window]) expect((await jobsOf(id))[0]?.state).toBe('WAITING');
    for (const id of [rssi, window]) expect((await act(env, 'cancel', id)).statusCode).toBe(200);
  }, 60_000);

  it('pauses when the canary fails, before any other lock is notified; resume, automatic pause, cancel, retry', async () => {
    const devices = nb100().slice(3, 11);
    const id = await addRollout(env, { packageId, target: { kind: 'imeis', imeis: devices.map((d) => d.imei) }, canarySize: 2, maxRetries: 0 });
    const fleet = await fleetOf(devices, { ota: { failureRate: 1, failures: ['badChecksum'] } });
    await act(env, 'start', id);
    await waitFor(() => detail(env, id), (d) => d.state === 'PAUSED', 20_000);
    const paused = await detail(env, id);
    expect(paused.pauseReason).toBe('canary');
    expect(paused.counts).toEqual({ FAILED: 2, QUEUED: 6 });
    expect(paused.failures).toEqual([{ reason: 'checksum', count: 2 }]);
    const others = (await jobsOf(id)).filter((job) => !job.canary);
    expect(others.every((job) => job.state === 'QUEUED')).toBe(true);
    // Resumed by an operator: the canary is accepted, the others go, and the failure rate pauses it again.
    expect((await act(env, 'resume', id)).statusCode).toBe(200);
    await waitFor(() => detail(env, id), (d) => d.state === 'PAUSED' && d.pauseReason === 'failureRate', 30_000);
    expect((await detail(env, id)).counts.FAILED).toBeGreaterThanOrEqual(5);
    // Locks notified before the pause finish their (failing) attempt; those not yet notified stay QUEUED or
    // WAITING (on a loaded machine the pause can come before a lock's first heartbeat opened its battery gate:
    // red in CI with FAILED 7, WAITING 1); then retry with healthy locks, and the others go on too.
    const settled = ['FAILED', 'QUEUED', 'WAITING'];
    await waitFor(() => detail(env, id), (d) => Object.entries(d.counts).every(([state, n]) => settled.includes(state) || n === 0), 30_000);
    for (const device of fleet.devices) device.lock.ota.behaviour.failureRate = 0;
    expect((await act(env, 'retryFailed', id)).statusCode).toBe(200);
    await waitFor(() => detail(env, id), (d) => d.state === 'COMPLETED', 40_000);
    expect((await detail(env, id)).counts).toEqual({ UPDATED: 8 });
    expect((await act(env, 'cancel', id)).statusCode).toBe(409);
  }, 120_000);

  it('cancel stops what is not yet flashing', async () => {
    const devices = nb100().slice(11, 14);
    const id = await addRollout(env, { packageId, target: { kind: 'imeis', imeis: devices.map((d) => d.imei) }, minBattery: 101 - 1 });
    await act(env, 'start', id);
    await fleetOf(devices.map((d) => ({ ...d, battery: 50 })));
    await waitFor(() => jobsOf(id), (jobs) => jobs.every((job) => job.state === 'WAITING'));
    expect((await act(env, 'cancel', id)).statusCode).toBe(200);
    expect((await jobsOf(id)).map((job) => job.state)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
    expect((await detail(env, id)).state).toBe('CANCELED');
    expect((await act(env, 'resume', id)).statusCode).toBe(409);
  });

  it('a sleeping lock downloads over several wakes, resuming from its last offset', async () => {
    const [device] = nb100().slice(14, 15) as typeof env.devices;
    const id = await addRollout(env, { packageId, target: { kind: 'imeis', imeis: [device?.imei] } });
    await act(env, 'start', id);
    await fleetOf([{ ...(device as (typeof env.devices)[number]), alwaysOnline: false }], { heartbeatS: 3, wakeWindowMs: 800, ota: { chunksPerWake: 3 } });
    await waitFor(() => jobsOf(id), (jobs) => jobs[0]?.state === 'UPDATED', 40_000);
    const requests = await env.ctx.database.system.select({ data: uplinks.data, receivedAt: uplinks.receivedAt }).from(uplinks)
      .where(and(eq(uplinks.lockId, device?.lockId as number), eq(uplinks.type, 'otaChunkRequest'))).orderBy(asc(uplinks.seq));
    const offsets = requests.map((r) => (r.data as { offset: number }).offset);
    // Nothing restarts from zero: offsets never go down (a request may repeat an offset when its chunk came too
    // late for the wake, e.g. the lock's retry or a re-notice before the first chunk on a loaded machine), and every
    // chunk was asked for.
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect([...new Set(offsets)]).toEqual(Array.from({ length: 10 }, (_, index) => index * 2048));
    expect(Math.max(...offsets)).toBe(9 * 2048);
    // Three chunks a wake: the ten requests spread over at least four wakes, seconds apart.
    const spanMs = new Date(requests.at(-1)?.receivedAt as Date).getTime() - new Date(requests[0]?.receivedAt as Date).getTime();
    expect(spanMs).toBeGreaterThan(6000);
  }, 60_000);

  it('a lock refuses a package altered on the platform (bytes and recorded hash both changed): FAILED signature, never flashed', async () => {
    const [device] = nb100().slice(15, 16) as typeof env.devices;
    const altered = dataOf(await upload(env, 'ZG-NB100', '2.6.0', image(SIZE, 9))).id;
    const [row] = await env.ctx.database.system.select().from(firmwarePackages).where(eq(firmwarePackages.id, altered));
    const path = join(env.dataDir, 'firmware', row?.storageKey as string);
    const bytes = await readFile(path);
    bytes[bytes.length - 1000] = (bytes[bytes.length - 1000] as number) ^ 0xff; // inside the image
    await writeFile(path, bytes);
    await env.ctx.database.system.update(firmwarePackages).set({ sha256: createHash('sha256').update(bytes).digest('hex') }).where(eq(firmwarePackages.id, altered));
    const id = await addRollout(env, { packageId: altered, target: { kind: 'imeis', imeis: [device?.imei] }, maxRetries: 0 });
    await act(env, 'start', id);
    await fleetOf([device as (typeof env.devices)[number]]);
    await waitFor(() => jobsOf(id), (jobs) => jobs[0]?.state === 'FAILED', 30_000);
    expect((await jobsOf(id))[0]?.reason).toBe('signature');
    expect((await detail(env, id)).failures).toEqual([{ reason: 'signature', count: 1 }]);
    const [lock] = await env.ctx.database.system.select({ v: locks.firmwareVersion }).from(locks).where(eq(locks.id, device?.lockId as number));
    expect(lock?.v).not.toBe('2.6.0');
  }, 60_000);
});

