/**
 * What a server costs doing nothing: the compiled server process
 * (production build, every background job) is started, left BENCH_IDLE_WARMUP_S (default 60 s) to
 * finish its start-up work, then its CPU time, and PostgreSQL's (the postmaster and its backends),
 * is read from /proc over BENCH_IDLE_MINUTES (default 5) minutes, no client connected:
 *   1. DEMO=off on PGlite (an empty data directory, no device);
 *   2. DEMO=off on PostgreSQL (an empty database, no device), when Debian's server binaries exist;
 *   3. the default demo (DEMO=on on PGlite: 50 simulated locks, 6 air switches, their history).
 * Prints each as % of one core with the machine's load average at start and end (other processes
 * share the cores; the figure is the server's own CPU, not wall time).
 * Budgets: DEMO=off <= 0.5 % of a core on both databases; the default demo <= 5 %.
 * BENCH_IDLE_MODES=pglite,postgres,demo picks modes (default all).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, startServer } from '../apps/server/integration/server-process.js';
import { cpuMs, postmasterPid } from './cpu.js';
import { startPostgres } from './postgres.js';

const MINUTES = Number(process.env.BENCH_IDLE_MINUTES ?? 5);
const WARMUP_S = Number(process.env.BENCH_IDLE_WARMUP_S ?? 60);
const MODES = (process.env.BENCH_IDLE_MODES ?? 'pglite,postgres,demo').split(',');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');

interface Figure { label: string; percent: number; serverPercent: number; postgresPercent: number; budget: number }

/** Starts the compiled server with `env`, waits, measures; returns the figure. */
async function measure(label: string, env: Record<string, string>, budget: number, postgresDataDir?: string): Promise<Figure> {
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-idle-'));
  const server = await startServer({ DATA_DIR: dataDir, PORT: String(await freePort()), MQTT_PORT: String(await freePort()), LOG_LEVEL: 'warn', ...env }, 180_000, { compiled: true });
  try {
    await sleep(WARMUP_S * 1000);
    const postmaster = postgresDataDir ? postmasterPid(postgresDataDir) : undefined;
    const read = () => ({ server: cpuMs(server.pid, true), postgres: postmaster ? cpuMs(postmaster, true) : 0, at: performance.now() });
    const loadBefore = load();
    const before = read();
    await sleep(MINUTES * 60_000);
    const after = read();
    const wallMs = after.at - before.at;
    const serverPercent = ((after.server - before.server) / wallMs) * 100;
    const postgresPercent = ((after.postgres - before.postgres) / wallMs) * 100;
    const figure = { label, percent: serverPercent + postgresPercent, serverPercent, postgresPercent, budget };
    console.log(`  ${label.padEnd(34)} ${figure.percent.toFixed(3)} % of a core (server ${serverPercent.toFixed(3)} %, PostgreSQL ${postgresPercent.toFixed(3)} %)` +
      ` over ${MINUTES} min; budget <= ${budget} %: ${figure.percent <= budget ? 'met' : 'MISSED'}; load ${loadBefore} -> ${load()}`);
    return figure;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`idle benchmark: ${MINUTES} min per mode after ${WARMUP_S} s of start-up, compiled server; load ${load()}`);
const build = spawnSync(process.execPath, [join(import.meta.dirname, '../scripts/server-build.mjs')], { encoding: 'utf8' });
if (build.status !== 0) throw new Error(`server build failed: ${build.stderr}`);
const figures: Figure[] = [];
if (MODES.includes('pglite')) figures.push(await measure('DEMO=off, PGlite', { DEMO: 'off' }, 0.5));
if (MODES.includes('postgres')) {
  const postgres = await startPostgres();
  if (!postgres) console.warn('  PostgreSQL binaries missing: DEMO=off on PostgreSQL skipped');
  else {
    try {
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query('create database iot_bench_idle');
      await admin.end();
      figures.push(await measure(`DEMO=off, PostgreSQL ${postgres.version}`, { DEMO: 'off', DATABASE_URL: postgres.url.replace(/\/postgres$/, '/iot_bench_idle') }, 0.5, postgres.dataDir));
    } finally {
      postgres.stop();
    }
  }
}
if (MODES.includes('demo')) figures.push(await measure('default demo (DEMO=on, PGlite)', { DEMO: 'on', SIM_LOCKS: '50' }, 5));
process.exit(figures.every((f) => f.percent <= f.budget) ? 0 : 1);
