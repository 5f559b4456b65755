/**
 * Graceful shutdown under load: the real server (PGlite data dir, embedded broker) gets
 * SIGTERM while 60 locks publish QoS 1 heartbeats as fast as they are acknowledged, an operator's
 * client creates roles through the API, several calls in flight, and a console holds the live stream
 * open (it is told `closed: shutdown` and ended, never waited for). The process must log `stopped` and
 * exit within its deadline; every heartbeat whose PUBACK reached a lock must be stored once; every
 * role whose creation was answered 200 must exist; no call may have failed with a 5xx other than the
 * 503 of a server that is closing. It runs the compiled server, as production does: under load tsx's
 * signal relay SIGKILLs a child that does not confirm a signal within 30 ms. Bounded: ~30 s.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { openLive } from '../test/sse-client.js';
import { attemptDirs } from './attempt-dirs.js';
import { provisionLocks, rows, startLoad } from './devices.js';
import { freePort, type ServerProcess, signInOverHttp, startServer, waitUntil } from './server-process.js';

const LOCKS = 60;
const dataDirs = attemptDirs('iot-sigterm-');
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.kill9();
  dataDirs.removeAll();
});

it('loses no acknowledged heartbeat and no answered API write across a SIGTERM under load', async () => {
  // A retry starts clean: the failed attempt's server is gone and its data directory is not reused.
  await server?.kill9();
  const dataDir = dataDirs.next();
  const database = await openDatabase({ dataDir });
  const devices = await provisionLocks(database, LOCKS);
  await database.close();
  const port = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: String(await freePort()), SHUTDOWN_TIMEOUT_MS: '15000' };
  const build = spawnSync(process.execPath, [join(import.meta.dirname, '../../../scripts/server-build.mjs')], { encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  server = await startServer(env, 60_000, { compiled: true });
  const base = `http://127.0.0.1:${port}`;
  const token = await signInOverHttp(base);

  // API writers: 4 clients creating roles one after another until the server is gone.
  const created: string[] = [];
  const failures: string[] = [];
  let stopWriting = false;
  const writer = async (w: number) => {
    for (let i = 0; !stopWriting; i++) {
      const name = `sigterm-${w}-${i}`;
      try {
        const response = await fetch(`${base}/v1/sysRole/add`, {
          method: 'POST', headers: { 'content-type': 'application/json', zw_paas_token: token, tenantId: '100' },
          body: JSON.stringify({ name, description: '', authorities: ['HOME_PAGE'] }),
        });
        if (response.status === 200) created.push(name);
        else if (response.status !== 503) failures.push(`${name}: ${response.status} ${await response.text()}`);
      } catch {
        await new Promise((r) => setTimeout(r, 20)); // connection refused or reset: the server is going away
      }
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  const stream = await openLive(base, { token, tenantId: 100 });
  await stream.next((message) => message.event === 'ready', 30_000);
  const load = startLoad({ url: `mqtt://127.0.0.1:${env.MQTT_PORT}`, devices, window: 5 });
  try {
    await waitUntil(() => load.ackedCount() >= 1500 && created.length >= 20, 30_000, '1,500 acknowledged heartbeats and 20 roles');
    const stopped = server.stop(20_000); // SIGTERM; SIGKILL only past 20 s
    await stopped;
    expect(server.logs('stopped')).toHaveLength(1); // the graceful path ran to its end
    expect((await stream.next((message) => message.event === 'closed')).data).toEqual({ reason: 'shutdown' });
    await stream.ended;
    console.info(`[sigterm] ${load.ackedCount()} heartbeats acknowledged, ${created.length} roles created before the exit`);
  } finally {
    stopWriting = true;
    await Promise.all(writers);
    load.stopPublishing();
    await load.end();
  }
  server = undefined;
  expect(failures).toEqual([]);

  const check = await openDatabase({ dataDir });
  try {
    const stored = rows<{ imei: string; seq: number }>(await check.system.execute(sql`select l.imei, h.seq from heartbeats h join locks l on l.id = h.lock_id`));
    const [totals] = rows<{ n: number; distinct_n: number }>(await check.system.execute(
      sql`select count(*)::int as n, count(distinct (lock_id, seq))::int as distinct_n from heartbeats`));
    const storedKeys = new Set(stored.map((row) => `${row.imei}:${row.seq}`));
    const missing = [...load.acked].flatMap(([imei, seqs]) => [...seqs].filter((seq) => !storedKeys.has(`${imei}:${seq}`)).map((seq) => `${imei}:${seq}`));
    expect(missing).toEqual([]);
    expect(totals?.n).toBe(totals?.distinct_n);
    const roleNames = new Set(rows<{ name: string }>(await check.system.execute(sql`select name from roles where name like 'sigterm-%'`)).map((row) => row.name));
    expect(created.filter((name) => !roleNames.has(name))).toEqual([]);
  } finally {
    await check.close();
  }
});
