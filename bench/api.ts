/**
 * The cost of the API's request path: the real server process
 * (DEMO=on, no simulated fleet, LOG_LEVEL=warn, no load shedding) on a database with 40 locks and 10,000 heartbeats,
 * loaded by autocannon from this process (BENCH_CONNECTIONS, default 10, unpipelined):
 *   GET /oauth/key                      no database: the baseline (1.00x)
 *   GET /oauth/userInfo                 authentication only (principal + tenant list)
 *   GET /iot/v1/lockDevice/list         20 rows of 40 locks, in the tenant's transaction
 *   GET /iot/v1/logHeartbeat/list       20 rows of 10,000 heartbeats
 * Rounds are interleaved (every route once per round, ROUNDS rounds of SECONDS s each); the median
 * round counts. Budget on PostgreSQL: lock list >= 0.15x the baseline with p99 <= 50 ms. PGlite is
 * recorded, not judged. BENCH_API_DB=pglite|postgres|both (default both).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { provisionLocks } from '../apps/server/integration/devices.js';
import { freePort, signInOverHttp, startServer } from '../apps/server/integration/server-process.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { cpuMs, ownCpuMs, postmasterPid } from './cpu.js';
import { type CpuReaders, type Figure, interleavedRounds } from './http-rounds.js';
import { startPostgres } from './postgres.js';

const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const MODE = process.env.BENCH_API_DB ?? 'both';
const ROUTES = [
  ['no database', '/oauth/key'],
  ['userInfo', '/oauth/userInfo'],
  ['lock list', '/iot/v1/lockDevice/list?pageNum=1&pageSize=20'],
  ['heartbeat log list', '/iot/v1/logHeartbeat/list?pageNum=1&pageSize=20'],
] as const;

/** Migrates and fills the database behind `env`: 40 locks, 250 heartbeats each. */
async function fill(options: { databaseUrl?: string; dataDir: string }): Promise<void> {
  const database = await openDatabase(options);
  try {
    await provisionLocks(database, 40);
    await database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select l.tenant_id, l.id, g.s, 20 + (g.s * 7 + l.id) % 80, -110 + (g.s + l.id) % 50, ((g.s % 30) - 5)::real, 'V1.2.3',
        now() - (250 - g.s) * interval '10 minutes', now() - (250 - g.s) * interval '10 minutes'
      from locks l cross join generate_series(1, 250) as g(s) where l.simulated on conflict do nothing`);
    await database.system.execute(sql`analyze`);
  } finally {
    await database.close();
  }
}

/**
 * Runs the rounds against a server started with `env`, printing each process's CPU ms per answered
 * request: the server, PostgreSQL (when `postgresDataDir` names its cluster; PGlite runs inside the
 * server) and autocannon (this process).
 */
async function bench(label: string, env: Record<string, string>, postgresDataDir?: string): Promise<Map<string, Figure>> {
  const port = await freePort();
  const server = await startServer({ ...env, PORT: String(port), MQTT_PORT: String(await freePort()), DEMO: 'on', SIM_LOCKS: '0', SIM_AIR_SWITCHES: '0', LOG_LEVEL: 'warn',
    TOKEN_ROTATE_S: '86400', MAX_EVENT_LOOP_DELAY_MS: '0' }); // no load shedding: measure what is answered
  try {
    const base = `http://127.0.0.1:${port}`;
    const token = await signInOverHttp(base);
    const cpu: CpuReaders = { server: () => cpuMs(server.pid, true), autocannon: ownCpuMs };
    if (postgresDataDir) {
      const postmaster = postmasterPid(postgresDataDir);
      cpu.postgres = () => cpuMs(postmaster, true);
    }
    return await interleavedRounds(label, ROUTES.map(([name, path]) => [name, base + path] as const), token, { rounds: ROUNDS, seconds: SECONDS, baseline: 'no database', cpu });
  } finally {
    await server.stop();
  }
}

let failed = false;
if (MODE !== 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-api-'));
  try {
    await fill({ dataDir });
    await bench('PGlite', { DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (MODE !== 'pglite') {
  const postgres = await startPostgres();
  if (!postgres) console.warn('PostgreSQL binaries missing: skipped');
  else {
    try {
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query('create database iot_bench_api');
      await admin.end();
      const databaseUrl = postgres.url.replace(/\/postgres$/, '/iot_bench_api');
      await fill({ databaseUrl, dataDir: '' });
      const result = await bench(`PostgreSQL (${postgres.version})`, { DATABASE_URL: databaseUrl }, postgres.dataDir);
      const locks = result.get('lock list');
      const ratio = (locks?.rps ?? 0) / (result.get('no database')?.rps ?? 1);
      const within = ratio >= 0.15 && (locks?.p99 ?? Infinity) <= 50;
      console.log(`budget (PostgreSQL lock list >= 0.15x, p99 <= 50 ms): ${within ? 'met' : 'MISSED'} (${ratio.toFixed(3)}x, p99 ${locks?.p99} ms)`);
      if (!within) failed = true;
    } finally {
      postgres.stop();
    }
  }
}
process.exit(failed ? 1 : 0);
