/**
 * A rollout survives a kill -9 of the platform. The real server (PGlite data
 * dir, embedded broker) runs a rollout to 20 simulated locks (@iot/simulator, always online, 4 chunks
 * of 2,048 bytes per heartbeat at one heartbeat a second, so a 40-chunk download takes ~10 s whatever
 * the machine's speed); it is SIGKILLed once every lock holds part of the package, and restarted on the
 * same data dir and ports. Every lock must end UPDATED with its heartbeats reporting the new version,
 * in its first attempt, and no lock may ask for offset 0 again after the kill: nothing it asks after
 * it is below the bytes it held (a request sent before the kill may be resent and answered after the
 * restart, so the first new one can be further on). Bounded: ~45 s, each wait has its own limit.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { protocol } from '@iot/contract';
import { type Fleet, startFleet } from '@iot/simulator';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { attemptDirs } from './attempt-dirs.js';
import { provisionLocks, rows } from './devices.js';
import { firmwareImage, rolloutState, startRollout, uploadPackage } from './ota-rollout.js';
import { freePort, type ServerProcess, signInOverHttp, startServer, waitUntil } from './server-process.js';

const MODEL = 'ZG-NB100';
const LOCKS = 20;
const CHUNKS = 40;
const SIZE = CHUNKS * protocol.OTA_CHUNK_BYTES - 100; // the last chunk is short
const VERSION = '9.0.0';
const dataDirs = attemptDirs('iot-ota-kill9-');
let server: ServerProcess | undefined;
let fleet: Fleet | undefined;
afterAll(async () => {
  await fleet?.stop();
  await server?.stop();
  dataDirs.removeAll();
});

it('resumes a rollout after a kill -9 of the server: every lock UPDATED, no download restarted from zero', async () => {
  await fleet?.stop(); // a failed attempt's fleet and server
  await server?.stop();
  fleet = undefined;
  server = undefined;
  const dataDir = dataDirs.next();
  const t0 = Date.now();
  const mark = (what: string) => console.info(`[ota-kill9] ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const database = await openDatabase({ dataDir });
  // 4 in 5 simulated locks are in tenant 100, models in turn: 75 give 20 ZG-NB100 there.
  const devices = (await provisionLocks(database, 75)).filter((d) => d.tenantId === 100 && d.model === MODEL).slice(0, LOCKS);
  await database.close();
  expect(devices).toHaveLength(LOCKS);
  mark('provisioned');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // No load shedding: a 503 from a busy 2-core machine would fail the API calls, not the transfer.
  const env = { DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: String(await freePort()), MAX_EVENT_LOOP_DELAY_MS: '0', SIM_AIR_SWITCHES: '0' };

  // The compiled server (as sigterm.test.ts): it starts in a few seconds where tsx takes tens on a busy machine.
  const build = spawnSync(process.execPath, [join(import.meta.dirname, '../../../scripts/server-build.mjs')], { encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  mark('built');
  server = await startServer(env, 60_000, { compiled: true });
  mark('started');
  const packageId = await uploadPackage(base, await signInOverHttp(base), MODEL, VERSION, firmwareImage(SIZE));
  const rolloutId = await startRollout(base, await signInOverHttp(base), packageId, devices.map((d) => d.imei), { lockTimeoutS: 600 });
  fleet = await startFleet({
    brokerUrl: `mqtt://127.0.0.1:${env.MQTT_PORT}`, devices: devices.map((d) => ({ ...d, battery: 80, alwaysOnline: true })),
    heartbeatS: 1, firstHeartbeatWithinMs: 500, behaviour: { flakyRatio: 0, drainProbability: 0 }, ota: { chunksPerWake: 4 },
  });
  const locks = fleet.devices.map((device) => device.lock);
  await waitUntil(() => locks.every((lock) => lock.ota.received >= 2 * protocol.OTA_CHUNK_BYTES), 30_000, 'every lock holding 2 chunks');

  await server.kill9(); // mid-download: chunk requests and chunks in flight
  const atKill = locks.map((lock) => ({ imei: lock.imei, held: lock.ota.received, seq: lock.seq }));
  mark(`killed (bytes held: ${atKill.map((a) => a.held / protocol.OTA_CHUNK_BYTES).join(', ')} chunks)`);
  expect(atKill.every((a) => a.held > 0 && a.held < SIZE)).toBe(true); // every lock mid-download
  server = await startServer(env, 60_000, { compiled: true });
  mark('restarted');

  const token = await signInOverHttp(base);
  await waitUntil(async () => (await rolloutState(base, token, rolloutId)).state === 'COMPLETED', 60_000, 'the rollout COMPLETED', 500);
  expect((await rolloutState(base, token, rolloutId)).counts).toEqual({ UPDATED: LOCKS });
  mark('completed');
  expect(locks.map((lock) => lock.firmwareVersion)).toEqual(locks.map(() => VERSION));
  await fleet.stop();
  fleet = undefined;
  await server.stop();
  server = undefined;

  const check = await openDatabase({ dataDir });
  try {
    const jobs = rows<{ imei: string; state: string; attempt: number; firmware_version: string }>(await check.system.execute(sql`
      select l.imei, j.state, j.attempt, l.firmware_version from firmware_jobs j join locks l on l.id = j.lock_id where j.rollout_id = ${rolloutId}`));
    expect(jobs.filter((job) => job.state !== 'UPDATED' || job.attempt !== 1 || job.firmware_version !== VERSION)).toEqual([]);
    const beats = rows<{ imei: string; firmware_version: string }>(await check.system.execute(sql`
      select distinct on (h.lock_id) l.imei, h.firmware_version from heartbeats h join locks l on l.id = h.lock_id
      where l.imei in ${devices.map((d) => d.imei)} order by h.lock_id, h.seq desc`));
    expect(beats.filter((beat) => beat.firmware_version !== VERSION)).toEqual([]);
    expect(beats).toHaveLength(LOCKS);

    const requests = rows<{ imei: string; seq: number; offset: number }>(await check.system.execute(sql`
      select l.imei, u.seq, (u.data->>'offset')::int as offset from uplinks u join locks l on l.id = u.lock_id
      where u.type = 'otaChunkRequest' and l.imei in ${devices.map((d) => d.imei)} order by l.imei, u.seq`));
    for (const { imei, held, seq } of atKill) {
      const after = requests.filter((r) => r.imei === imei && r.seq > seq).map((r) => r.offset);
      expect(after.length, imei).toBeGreaterThan(0);
      // Never below what it held; above it when the request the lock had sent before the kill (its seq, at the held
      // offset) was resent after the restart, answered, and the download went on from there.
      expect(Math.min(...after), `${imei}: lowest offset asked after the kill`).toBeGreaterThanOrEqual(held);
      const offsets = requests.filter((r) => r.imei === imei).map((r) => r.offset);
      expect(offsets, `${imei}: offsets in seq order`).toEqual([...offsets].sort((a, b) => a - b));
    }
    console.info(`[ota-kill9] ${LOCKS} locks, ${requests.length} chunk requests stored, ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await check.close();
  }
});
