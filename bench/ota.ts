/**
 * Firmware over the air at fleet scale, on PostgreSQL (Debian's server binaries; skipped
 * without them): one rollout of a BENCH_OTA_PACKAGE_KB (default 64) KiB package to BENCH_OTA_LOCKS
 * (default 1,000) simulated locks (bench/ota-fleet.ts, always online, a heartbeat every
 * BENCH_OTA_HEARTBEAT_S, default 10 s), through the real compiled server process (embedded broker).
 *   1. baseline: the same locks' plain heartbeats for BENCH_OTA_BASELINE_S (default 30 s);
 *   2. rollout: from the start action until every lock runs the new version (its heartbeat says so
 *      and its job is UPDATED), at most BENCH_OTA_TIMEOUT_S (default 240 s).
 * Prints the time to all UPDATED and, for each phase, the CPU share (CPU time / wall time, % of one
 * core) of the server process and of the PostgreSQL cluster (postmaster, its live and reaped
 * backends), with the rollout/baseline ratio. No budget: figures for bench/RESULTS.md. Fails only
 * when the rollout does not complete.
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { provisionLocks, rows } from '../apps/server/integration/devices.js';
import { firmwareImage, startRollout, uploadPackage } from '../apps/server/integration/ota-rollout.js';
import { freePort, type ServerProcess, signInOverHttp, startServer } from '../apps/server/integration/server-process.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { issueSimulatorCredentials } from '../apps/server/src/modules/lockDevice/credentials.js';
import { startPostgres } from './postgres.js';
import { cpuMs, postmasterPid } from './cpu.js';

const LOCKS = Number(process.env.BENCH_OTA_LOCKS ?? 1000);
const PACKAGE_BYTES = Number(process.env.BENCH_OTA_PACKAGE_KB ?? 64) * 1024;
const HEARTBEAT_S = Number(process.env.BENCH_OTA_HEARTBEAT_S ?? 10);
const BASELINE_S = Number(process.env.BENCH_OTA_BASELINE_S ?? 30);
const TIMEOUT_S = Number(process.env.BENCH_OTA_TIMEOUT_S ?? 240);
const MODEL = 'ZG-NB100';
const VERSION = '9.0.0';
/** CPU shares (%) of the server and PostgreSQL between a start() and its end(). */
function cpuWindow(serverPid: number, postmasterPid: number) {
  const start = { at: performance.now(), server: cpuMs(serverPid), postgres: cpuMs(postmasterPid, true) };
  return () => {
    const wallMs = performance.now() - start.at;
    return { wallMs, server: ((cpuMs(serverPid) - start.server) * 100) / wallMs, postgres: ((cpuMs(postmasterPid, true) - start.postgres) * 100) / wallMs };
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const postgres = await startPostgres();
if (!postgres) {
  console.log('ota: PostgreSQL server binaries not found: skipped');
  process.exit(0);
}
const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-ota-'));
const database = await openDatabase({ databaseUrl: postgres.url, dataDir: '' });
let server: ServerProcess | undefined;
let fleet: ChildProcess | undefined;
let failed = false;
try {
  const t0 = performance.now();
  // 4 in 5 simulated locks are in data centre 100; all of them are made one device type for the rollout.
  await provisionLocks(database, Math.ceil(LOCKS / 0.8) + 5);
  await database.system.execute(sql`update locks set model = ${MODEL} where tenant_id = 100 and simulated`);
  const devices = (await issueSimulatorCredentials(database)).filter((d) => d.tenantId === 100).slice(0, LOCKS);
  // The setup's writes flushed and analysed now, not by autovacuum and the checkpointer during the baseline.
  await database.system.execute(sql`vacuum analyze`);
  await database.system.execute(sql`checkpoint`);
  const build = spawnSync(process.execPath, [join(import.meta.dirname, '../scripts/server-build.mjs')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`server build failed: ${build.stderr}`);
  const port = await freePort();
  const mqttPort = await freePort();
  server = await startServer({
    DATABASE_URL: postgres.url, DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: String(mqttPort), DEMO: 'on', SIM_LOCKS: '0',
    SIM_AIR_SWITCHES: '0', LOG_LEVEL: 'warn', TOKEN_ROTATE_S: '86400', MAX_EVENT_LOOP_DELAY_MS: '0',
  }, 120_000, { compiled: true });
  const postmaster = postmasterPid(postgres.dataDir);
  console.log(`ota benchmark: ${devices.length} locks, ${PACKAGE_BYTES / 1024} KiB package (${Math.ceil(PACKAGE_BYTES / protocol.OTA_CHUNK_BYTES)} chunks each),` +
    ` heartbeat every ${HEARTBEAT_S} s, ${postgres.version}; set up in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  let updated = 0;
  fleet = fork(join(import.meta.dirname, 'ota-fleet.ts'), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const connected = new Promise<void>((resolve) => fleet?.on('message', (m: { connected?: boolean; updated?: number }) => {
    if (m.connected) resolve();
    if (m.updated !== undefined) updated = m.updated;
  }));
  fleet.send({ devices, url: `mqtt://127.0.0.1:${mqttPort}`, heartbeatS: HEARTBEAT_S, version: VERSION });
  await connected;
  await sleep(2 * HEARTBEAT_S * 1000); // past the connect surge: every lock beating at its pace

  const baseline = cpuWindow(server.pid, postmaster);
  await sleep(BASELINE_S * 1000);
  const plain = baseline();
  console.log(`  baseline, heartbeats only (${(plain.wallMs / 1000).toFixed(0)} s): server ${plain.server.toFixed(1)} % CPU, PostgreSQL ${plain.postgres.toFixed(1)} %`);

  const base = `http://127.0.0.1:${port}`;
  const token = await signInOverHttp(base);
  const packageId = await uploadPackage(base, token, MODEL, VERSION, firmwareImage(PACKAGE_BYTES));
  const rollout = cpuWindow(server.pid, postmaster);
  const startedAt = performance.now();
  const rolloutId = await startRollout(base, token, packageId, devices.map((d) => d.imei), { lockTimeoutS: 600, failureThresholdPct: 100 });
  const jobsUpdated = async () => rows<{ n: number }>(await database.system.execute(
    sql`select count(*)::int as n from firmware_jobs where rollout_id = ${rolloutId} and state = 'UPDATED'`))[0]?.n ?? 0;
  let firstMs: number | undefined;
  let halfMs: number | undefined;
  let done = 0;
  for (;;) {
    await sleep(500);
    done = await jobsUpdated();
    const at = performance.now();
    if (done > 0 && firstMs === undefined) firstMs = at;
    if (done * 2 >= devices.length && halfMs === undefined) halfMs = at;
    if ((done === devices.length && updated === devices.length) || at - startedAt > TIMEOUT_S * 1000) break;
  }
  const during = rollout();
  const since = (at: number | undefined) => at === undefined ? '-' : `${((at - startedAt) / 1000).toFixed(1)} s`;
  failed = done !== devices.length;
  const chunks = devices.length * Math.ceil(PACKAGE_BYTES / protocol.OTA_CHUNK_BYTES);
  console.log(`  rollout: ${done} of ${devices.length} UPDATED (${updated} locks report ${VERSION}) in ${(during.wallMs / 1000).toFixed(1)} s;` +
    ` first ${since(firstMs)}, half ${since(halfMs)}; ${(chunks / (during.wallMs / 1000)).toFixed(0)} chunks/s, ${((PACKAGE_BYTES * devices.length) / 1024 / 1024 / (during.wallMs / 1000)).toFixed(2)} MiB/s`);
  console.log(`  rollout (${(during.wallMs / 1000).toFixed(0)} s): server ${during.server.toFixed(1)} % CPU, PostgreSQL ${during.postgres.toFixed(1)} %`);
  console.log(`  ratio rollout / heartbeats only: server ${(during.server / plain.server).toFixed(1)}x, PostgreSQL ${(during.postgres / plain.postgres).toFixed(1)}x,` +
    ` both ${((during.server + during.postgres) / (plain.server + plain.postgres)).toFixed(1)}x; server CPU per lock updated ${((during.server * during.wallMs) / 100 / Math.max(done, 1)).toFixed(0)} ms`);
} finally {
  fleet?.send('stop');
  await new Promise((resolve) => { if (!fleet || fleet.exitCode !== null) resolve(undefined); else fleet.once('exit', resolve); });
  await server?.stop();
  await database.close();
  postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(failed ? 'ota: the rollout did not complete' : 'ota: done');
process.exit(failed ? 1 : 0);
