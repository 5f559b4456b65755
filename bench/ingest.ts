/**
 * Ingest benchmark (ARCHITECTURE.md "bench/"): BENCH_LOCKS (default 1,000) lock connections keep
 * 2 QoS 1 heartbeats each unacknowledged for BENCH_SECONDS (default 10 s) against
 *   1. bare aedes with a no-op authorizePublish (pass-through, nothing stored): the ceiling;
 *   2. the gateway (startGateway: device auth, validation, group commit, PUBACK after commit) on PGlite;
 *   3. the same on PostgreSQL (fsync on), when Debian's server binaries are installed.
 * Prints acknowledged messages/s and the ratio to pass-through (budget: persisted >= 0.5x), and checks
 * no loss: after draining, rows stored == PUBACKs received == messages sent. Load runs in a child process.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulatedDevice } from '@iot/simulator';
import { Aedes } from 'aedes';
import { sql } from 'drizzle-orm';
import { provisionLocks, rows } from '../apps/server/integration/devices.js';
import { type Database, openDatabase } from '../apps/server/src/db/client.js';
import { simulatedImei } from '../apps/server/src/db/seed.js';
import { startGateway } from '../apps/server/src/gateway/index.js';
import { silentLog } from '../apps/server/src/gateway/log.js';
import { startPostgres } from './postgres.js';

const LOCKS = Number(process.env.BENCH_LOCKS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WINDOW = 2;

interface LoadResult { rate: number; sent: number; acked: number; drained: boolean; connectMs: number }

/** Runs the load child against `url`; rejects after SECONDS + 120 s. */
function runLoad(url: string, devices: SimulatedDevice[]): Promise<LoadResult> {
  const child = fork(join(import.meta.dirname, 'load-worker.ts'), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('load timed out')); }, (SECONDS + 120) * 1000);
    let connectMs = 0;
    let rate = 0;
    child.on('message', (m: Record<string, number | boolean>) => {
      if (m.ready) { connectMs = m.connectMs as number; child.send('go'); }
      else if (m.windowMs) rate = ((m.windowAcked as number) * 1000) / (m.windowMs as number);
      else if ('drained' in m) { clearTimeout(timer); resolve({ rate, connectMs, sent: m.sent as number, acked: m.acked as number, drained: m.drained as boolean }); }
    });
    child.on('exit', (code) => { if (code) { clearTimeout(timer); reject(new Error(`load exited ${code}`)); } });
    child.send({ devices, url, window: WINDOW, durationMs: SECONDS * 1000 });
  });
}

async function passThrough(): Promise<LoadResult> {
  const broker = await Aedes.createBroker({
    authenticate: (_client, _user, _password, done) => done(null, true),
    authorizePublish: (_client, _packet, done) => done(null),
  });
  const server = createServer(broker.handle).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const devices: SimulatedDevice[] = Array.from({ length: LOCKS }, (_, i) => ({
    imei: simulatedImei(i), secret: 'x', tenantId: 100, model: 'ZG-NB100', firmwareVersion: 'V1.2.3', heartbeatIntervalS: 60, lastSeq: null, battery: null,
  }));
  try {
    return await runLoad(`mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`, devices);
  } finally {
    await new Promise((resolve) => broker.close(() => resolve(undefined)));
    server.close();
  }
}

async function persisted(database: Database): Promise<LoadResult & { stored: number }> {
  const devices = await provisionLocks(database, LOCKS);
  const gateway = await startGateway({ database, config: { MQTT_PORT: 0, HOST: '127.0.0.1', MQTT_URL: undefined }, log: silentLog });
  try {
    const result = await runLoad(`mqtt://127.0.0.1:${gateway.port}`, devices);
    await gateway.close();
    const stored = rows<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from heartbeats`))[0]?.n ?? 0;
    return { ...result, stored };
  } catch (error) {
    await gateway.close();
    throw error;
  }
}

const results: { mode: string; result: LoadResult & { stored?: number } }[] = [];
console.log(`ingest benchmark: ${LOCKS} locks, window ${WINDOW}, ${SECONDS} s per mode`);
results.push({ mode: 'aedes pass-through (no persistence)', result: await passThrough() });

const dir = mkdtempSync(join(tmpdir(), 'iot-bench-pglite-'));
const pglite = await openDatabase({ dataDir: dir });
try {
  results.push({ mode: 'gateway + PGlite (data dir)', result: await persisted(pglite) });
} finally {
  await pglite.close();
  rmSync(dir, { recursive: true, force: true });
}

const postgres = await startPostgres();
if (postgres) {
  const database = await openDatabase({ databaseUrl: postgres.url, dataDir: '' });
  try {
    results.push({ mode: `gateway + ${postgres.version} (fsync on)`, result: await persisted(database) });
  } finally {
    await database.close();
    postgres.stop();
  }
} else console.log('PostgreSQL server binaries not found: PostgreSQL mode skipped');

const base = results[0]?.result.rate ?? 1;
let failed = false;
for (const { mode, result } of results) {
  const lossFree = result.stored === undefined || (result.drained && result.stored === result.acked && result.acked === result.sent);
  const ratio = result.rate / base;
  if (result.stored !== undefined && (!lossFree || ratio < 0.5)) failed = true;
  console.log(`${mode.padEnd(44)} ${result.rate.toFixed(0).padStart(7)} msg/s  ${ratio.toFixed(2)}x pass-through  ` +
    `connect ${LOCKS} in ${(result.connectMs / 1000).toFixed(1)} s  sent ${result.sent} acked ${result.acked}` +
    (result.stored === undefined ? '' : ` stored ${result.stored} ${lossFree ? 'no loss' : 'LOSS OR UNDRAINED'}`));
}
console.log(failed ? 'ingest: BUDGET MISSED (persisted >= 0.5x pass-through, no loss)' : 'ingest: within budget');
process.exit(failed ? 1 : 0);
