/**
 * The lock registry at fleet scale: 100,000 locks of data centre 100 (and 2,000 of
 * 101) on PostgreSQL, 50 buildings x 20 floors x 100 rooms, through the real server process (DEMO=on,
 * no simulated devices, LOG_LEVEL=warn, no load shedding), loaded by autocannon from this process:
 *   Fastify hello world          a bare Fastify server in its own process: the baseline (1.00x)
 *   GET /oauth/key               the platform's no-database route
 *   GET /oauth/userInfo          the token check alone (one indexed lookup): the floor of any API read
 *   lock list, building filter   20 rows and the total of one building (2,000 locks)
 *   lock list, keyword           20 rows and the total of an IMEI fragment
 *   lock list, no filter         20 rows and the total of all 100,000
 *   lockRoomList, floor          the rooms of one floor (100 locks)
 *   lockRoomList, keyword        the lock picker's search, 20 rows
 * Budget: the lock list with a filter and lockRoomList p99 <= 50 ms and >= 0.15x hello world.
 * Rounds interleaved (BENCH_FLEET_ROUNDS, default 3, of BENCH_FLEET_SECONDS, default 5), every load
 * after the previous one has drained (settle: no query of the server active in PostgreSQL, then a
 * pause), so a slow route's backlog is not measured as the next route's. The load average (os.loadavg,
 * as `uptime` shows it) is printed before and after: a figure needs it under 3 (bench/RESULTS.md).
 */
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { provisionLocks } from '../apps/server/integration/devices.js';
import { freePort, signInOverHttp, startServer } from '../apps/server/integration/server-process.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { cpuMs, ownCpuMs, postmasterPid } from './cpu.js';
import { firstRequests, helloWorld, interleavedRounds } from './http-rounds.js';
import { startPostgres } from './postgres.js';

const ROUNDS = Number(process.env.BENCH_FLEET_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_FLEET_SECONDS ?? 5);
const LOCKS = 100_000;
const JUDGED = ['lock list, building filter', 'lock list, keyword', 'lockRoomList, floor', 'lockRoomList, keyword'];

/** Migrates, seeds the demo accounts and fills 100,000 locks of tenant 100 and 2,000 of 101 in SQL. */
async function fill(databaseUrl: string): Promise<void> {
  const database = await openDatabase({ databaseUrl, dataDir: '' });
  try {
    await provisionLocks(database, 0);
    const started = performance.now();
    await database.system.execute(sql`
      insert into locks (tenant_id, imei, name, building, floor, room, model, firmware_version, battery, rssi, snr,
        heartbeat_interval_s, last_heartbeat_at, last_uplink_at)
      select case when g <= ${LOCKS} then 100 else 101 end, (869000000000000 + g)::text, 'Lock ' || g,
        'B' || lpad(((g - 1) / 2000 % 50)::text, 2, '0'), 'F' || lpad(((g - 1) / 100 % 20)::text, 2, '0'), 'R' || lpad(((g - 1) % 100)::text, 3, '0'),
        'ZG-NB200', 'V1.0.' || (g % 3), 20 + g % 80, -115 + g % 50, (g % 30) - 5, 3600,
        now() - (g % 7200) * interval '1 second', now() - (g % 7200) * interval '1 second'
      from generate_series(1, ${LOCKS + 2000}) as g`);
    // Vacuumed as autovacuum soon would after such an insert: the visibility map lets counts read only the index.
    await database.system.execute(sql`vacuum analyze locks`);
    await database.system.execute(sql`analyze`);
    console.log(`filled ${LOCKS + 2000} locks in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await database.close();
  }
}


/** Load average over 1, 5 and 15 minutes, as `uptime` prints it. */
const loadAverage = () => loadavg().map((n) => n.toFixed(2)).join(', ');

/**
 * Waits (at most 60 s) until no statement of another session runs in the bench database, then
 * `PAUSE_MS` more: the previous load's queued requests are done.
 */
async function settle(admin: pg.Client): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state = 'active'`);
    if (rows[0]?.n === 0) break;
    if (performance.now() > deadline) {
      console.warn(`settle: still ${rows[0]?.n} active statements after 60 s`);
      break;
    }
    await sleep(100);
  }
  await sleep(PAUSE_MS);
}
const PAUSE_MS = 1000;

/**
 * What each request costs in CPU (ms per answered request): the server (its process group's node),
 * the hello world, PostgreSQL (postmaster and backends) and autocannon (this process). On 2 cores the
 * ratio budget is a CPU budget: 0.15x of hello world must fit in 2 cores with everything else.
 */
function cpuReaders(serverPid: number, helloPid: number, dataDir: string) {
  const postmaster = postmasterPid(dataDir);
  return { server: () => cpuMs(serverPid, true), hello: () => cpuMs(helloPid), postgres: () => cpuMs(postmaster, true), autocannon: ownCpuMs };
}

console.log(`load average before: ${loadAverage()}`);
const postgres = await startPostgres();
if (!postgres) {
  console.warn('PostgreSQL binaries missing: skipped');
  process.exit(0);
}
let failed = false;
try {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('create database iot_bench_fleet');
  await admin.end();
  const databaseUrl = postgres.url.replace(/\/postgres$/, '/iot_bench_fleet');
  await fill(databaseUrl);
  const hello = await helloWorld();
  const port = await freePort();
  const server = await startServer({ DATABASE_URL: databaseUrl, PORT: String(port), MQTT_PORT: String(await freePort()), DEMO: 'on', SIM_LOCKS: '0',
    SIM_AIR_SWITCHES: '0', LOG_LEVEL: 'warn', TOKEN_ROTATE_S: '86400', MAX_EVENT_LOOP_DELAY_MS: '0' });
  try {
    const base = `http://127.0.0.1:${port}`;
    const token = await signInOverHttp(base);
    const routes = [
      ['Fastify hello world', hello.url],
      ['no database (/oauth/key)', `${base}/oauth/key`],
      ['token check alone (/oauth/userInfo)', `${base}/oauth/userInfo`],
      ['lock list, building filter', `${base}/iot/v1/lockDevice/list?current=1&size=20&building=B07`],
      ['lock list, keyword', `${base}/iot/v1/lockDevice/list?current=1&size=20&keyword=8690000000123`],
      ['lock list, no filter', `${base}/iot/v1/lockDevice/list?current=1&size=20`],
      ['lockRoomList, floor', `${base}/iot/v1/lockDevice/lockRoomList?building=B07&floor=F03&size=100`],
      ['lockRoomList, keyword', `${base}/iot/v1/lockDevice/lockRoomList?keyword=8690000000123&size=20`],
    ] as const;
    await firstRequests(routes, token);
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await watcher.connect();
    const result = await interleavedRounds(`PostgreSQL (${postgres.version}), ${LOCKS} locks`, routes, token,
      { rounds: ROUNDS, seconds: SECONDS, baseline: 'Fastify hello world', settle: () => settle(watcher), cpu: cpuReaders(server.pid, hello.pid, postgres.dataDir) });
    await watcher.end();
    console.log(`load average after: ${loadAverage()}`);
    const baseline = result.get('Fastify hello world')?.rps ?? 1;
    for (const name of JUDGED) {
      const figure = result.get(name);
      const ratio = (figure?.rps ?? 0) / baseline;
      const within = ratio >= 0.15 && (figure?.p99 ?? Infinity) <= 50 && figure?.non2xx === 0;
      console.log(`budget ${name} (>= 0.15x hello world, p99 <= 50 ms): ${within ? 'met' : 'MISSED'} (${ratio.toFixed(3)}x, p99 ${figure?.p99} ms)`);
      if (!within) failed = true;
    }
  } finally {
    await server.stop();
    hello.stop();
  }
} finally {
  postgres.stop();
}
process.exit(failed ? 1 : 0);
