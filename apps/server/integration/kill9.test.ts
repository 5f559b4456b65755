/**
 * Durability proof of the embedded default (docs/protocol.md "QoS, acknowledgement, duplicates"): the
 * real server (PGlite data dir, embedded broker) is SIGKILLed while 120 locks publish QoS 1 heartbeats
 * as fast as they are acknowledged, then restarted on the same data dir and port; the locks reconnect
 * and resend what was not acknowledged. Every (imei, seq) whose PUBACK reached a lock must be stored,
 * and no (lock, seq) twice. Bounded: ~30 s, each wait has its own limit.
 */
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { attemptDirs } from './attempt-dirs.js';
import { provisionLocks, rows, startLoad } from './devices.js';
import { freePort, type ServerProcess, startServer, waitUntil } from './server-process.js';

const LOCKS = 120;
const dataDirs = attemptDirs('iot-kill9-');
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  dataDirs.removeAll();
});

it('loses no acknowledged heartbeat and stores none twice across a kill -9 of the server', async () => {
  await server?.stop(); // a failed attempt's server
  server = undefined;
  const dataDir = dataDirs.next();
  const t0 = Date.now();
  const mark = (what: string) => console.info(`[kill9] ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const database = await openDatabase({ dataDir });
  const devices = await provisionLocks(database, LOCKS);
  await database.close();
  expect(devices).toHaveLength(LOCKS);
  const env = { DATA_DIR: dataDir, PORT: String(await freePort()), MQTT_PORT: String(await freePort()) };

  mark('provisioned');
  server = await startServer(env);
  mark('started');
  const load = startLoad({ url: `mqtt://127.0.0.1:${env.MQTT_PORT}`, devices, window: 5 });
  try {
    await waitUntil(() => load.ackedCount() >= 2000, 30_000, '2,000 acknowledged heartbeats');
    await server.kill9(); // mid-stream: PUBLISHes in flight, batches being written
    const ackedAtKill = load.ackedCount();
    mark('killed');
    server = await startServer(env);
    mark('restarted');
    await waitUntil(() => load.ackedCount() >= ackedAtKill + 2000, 30_000, '2,000 more after the restart');
    mark('2,000 more');
    load.stopPublishing();
    expect(await load.drain(20_000)).toBe(true); // every heartbeat published got its PUBACK in the end
    console.info(`[kill9] ${LOCKS} locks: ${ackedAtKill} acknowledged before the kill, ${load.ackedCount()} in all (${load.sent()} published)`);
  } finally {
    await load.end();
    await server.stop();
    server = undefined;
  }

  const check = await openDatabase({ dataDir });
  try {
    const stored = rows<{ imei: string; seq: number }>(await check.system.execute(
      sql`select l.imei, h.seq from heartbeats h join locks l on l.id = h.lock_id`));
    const [totals] = rows<{ n: number; distinct_n: number }>(await check.system.execute(
      sql`select count(*)::int as n, count(distinct (lock_id, seq))::int as distinct_n from heartbeats`));
    const storedKeys = new Set(stored.map((row) => `${row.imei}:${row.seq}`));
    const missing = [...load.acked].flatMap(([imei, seqs]) => [...seqs].filter((seq) => !storedKeys.has(`${imei}:${seq}`)).map((seq) => `${imei}:${seq}`));
    expect(missing).toEqual([]);
    expect(totals?.n).toBe(totals?.distinct_n);
    expect(totals?.n).toBe(load.ackedCount()); // every published heartbeat was acknowledged and stored once
  } finally {
    await check.close();
  }
});
