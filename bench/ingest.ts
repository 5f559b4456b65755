/**
 * Ingest benchmark (ARCHITECTURE.md "bench/"): BENCH_LOCKS (default 1,000) lock connections keep
 * 2 QoS 1 heartbeats each unacknowledged for BENCH_SECONDS (default 10 s) against
 *   1. bare aedes with a no-op authorizePublish (pass-through, nothing stored): the ceiling;
 *   2. the gateway (startGateway: device auth, validation, group commit, PUBACK after commit) on PGlite;
 *   3. the same on PostgreSQL (fsync on), when Debian's server binaries are installed.
 * Modes run in turn for BENCH_ROUNDS rounds (default 3); prints each run, then per mode the median
 * acknowledged messages/s and its ratio to pass-through's median, and checks no loss in every run:
 * after draining, rows stored == PUBACKs received == messages sent.
 * Budget: no loss in any mode, and persisted >= 0.5x pass-through on the production database
 * (PostgreSQL; PGlite when PostgreSQL is not installed). With PostgreSQL present the PGlite ratio is
 * printed but not judged: PGlite runs the database engine itself (WASM, one connection) on the
 * broker's own thread, so that mode measures the embedded demo setup, not the gateway's design.
 * Load runs in a child process.
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
import { simulatedImei } from '../apps/server/src/demo/seed.js';
import { startGateway } from '../apps/server/src/gateway/index.js';
import { silentLog } from '../apps/server/src/gateway/log.js';
import { startPostgres } from './postgres.js';

const LOCKS = Number(process.env.BENCH_LOCKS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Rounds of all modes in turn; the median of each mode counts (the machine's speed drifts by +-20 % over minutes). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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

/** A persisted mode: its database stays open across rounds; each round starts a fresh gateway on it. */
interface Mode { name: string; database?: Database; close(): Promise<void> }

async function persisted(database: Database): Promise<LoadResult & { stored: number }> {
  // Fresh secrets and each lock's last stored seq, so a round continues where the last one stopped.
  const devices = await provisionLocks(database, LOCKS);
  const count = async () => rows<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from heartbeats`))[0]?.n ?? 0;
  const before = await count();
  const gateway = await startGateway({ database, config: { MQTT_PORT: 0, HOST: '127.0.0.1', MQTT_URL: undefined }, log: silentLog });
  try {
    const result = await runLoad(`mqtt://127.0.0.1:${gateway.port}`, devices);
    await gateway.close();
    return { ...result, stored: (await count()) - before };
  } catch (error) {
    await gateway.close();
    throw error;
  }
}

const modes: Mode[] = [{ name: 'aedes pass-through (no persistence)', close: async () => {} }];
const dir = mkdtempSync(join(tmpdir(), 'iot-bench-pglite-'));
const pglite = await openDatabase({ dataDir: dir });
modes.push({ name: 'gateway + PGlite (data dir)', database: pglite, close: async () => { await pglite.close(); rmSync(dir, { recursive: true, force: true }); } });
const postgres = await startPostgres();
if (postgres) {
  const database = await openDatabase({ databaseUrl: postgres.url, dataDir: '' });
  modes.push({ name: `gateway + ${postgres.version.replace(/^postgres \(PostgreSQL\) (\S+).*/, 'PostgreSQL $1')} (fsync on)`, database, close: async () => { await database.close(); postgres.stop(); } });
} else console.log('PostgreSQL server binaries not found: PostgreSQL mode skipped');

console.log(`ingest benchmark: ${LOCKS} locks, window ${WINDOW}, ${SECONDS} s per mode, ${ROUNDS} rounds (modes interleaved)`);
const results = new Map<Mode, (LoadResult & { stored?: number })[]>(modes.map((mode) => [mode, []]));
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const mode of modes) {
      const result: LoadResult & { stored?: number } = mode.database ? await persisted(mode.database) : await passThrough();
      results.get(mode)?.push(result);
      console.log(`  round ${round} ${mode.name.padEnd(44)} ${result.rate.toFixed(0).padStart(7)} msg/s  sent ${result.sent} acked ${result.acked}` +
        (result.stored === undefined ? '' : ` stored ${result.stored}`));
    }
  }
} finally {
  for (const mode of modes) await mode.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const base = median(results.get(modes[0] as Mode)?.map((r) => r.rate) ?? [1]);
let failed = false;
console.log('\nmedian of the rounds:');
for (const mode of modes) {
  const runs = results.get(mode) ?? [];
  const rate = median(runs.map((r) => r.rate));
  const ratio = rate / base;
  const lossFree = runs.every((r) => r.stored === undefined || (r.drained && r.stored === r.acked && r.acked === r.sent));
  const judged = mode === modes[modes.length - 1]; // PostgreSQL when present, else PGlite
  if (mode.database && (!lossFree || (judged && ratio < 0.5))) failed = true;
  console.log(`${mode.name.padEnd(44)} ${rate.toFixed(0).padStart(7)} msg/s  ${ratio.toFixed(2)}x pass-through` +
    ` (rounds ${runs.map((r) => r.rate.toFixed(0)).join(', ')})${mode.database ? (lossFree ? '  no loss' : '  LOSS OR UNDRAINED') : ''}` +
    (mode.database ? (judged ? '  [budget >= 0.5x]' : '  [not judged: embedded]') : ''));
}
console.log(failed ? 'ingest: BUDGET MISSED (persisted >= 0.5x pass-through, no loss)' : 'ingest: within budget');
process.exit(failed ? 1 : 0);
