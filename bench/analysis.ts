/**
 * The analysis at fleet scale: GET /iot/v1/lockDevice/analysis of data centre 100
 * with 100,000 locks and 45 days of rollups worth ~100,000,000 heartbeats (bench/analysis-fill.ts), on
 * PostgreSQL, through the real server process (DEMO=on, no simulated devices, LOG_LEVEL=warn, no load
 * shedding), signed in as the administrator, loaded by autocannon from this process:
 *   Fastify hello world        a bare Fastify server in its own process: the baseline (1.00x)
 *   no database (/oauth/key)   the platform's request path without a query
 *   tenant read path (feed)    the big screen's feed: token check and the tenant reader, two small queries
 *   analysis, 7 / 30 / 90 days the route under test (the fill covers 45 days; 90 reads them all)
 * BENCH_ANALYSIS_ROUNDS (default 3) interleaved rounds of BENCH_ANALYSIS_REQUESTS (default 100) requests
 * per route, one request at a time: the latency a screen or console sees (the big screen polls every
 * 10 s), and the requests per second that makes beside hello world's (bench/analysis-latency.ts).
 * Not at 50 connections as bench/fleet.ts: while one analysis takes longer than a second, 50 of them
 * queue for many seconds, the rounds complete nothing and the next route starves behind the backlog.
 * Budget: p99 of the 30-day analysis <= 100 ms, one request at a time; exit 1 when missed.
 *
 * The filled cluster is kept in the temp folder under a name with FILL_VERSION and today's date, so a
 * rerun the same day starts in seconds (BENCH_ANALYSIS_REFILL=1 forces a new fill); older ones are removed.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, signInOverHttp, startServer } from '../apps/server/integration/server-process.js';
import { DAYS, fillAnalysis, LOCKS, refreshLiveState } from './analysis-fill.js';
import { sequentialRounds } from './analysis-latency.js';
import { firstRequests, helloWorld } from './http-rounds.js';
import { startPostgres } from './postgres.js';
import { snapshotCost } from './analysis-snapshot-cost.js';

/** Change with the fill (analysis-fill.ts) or the migrations it builds on: a new name fills afresh. */
const FILL_VERSION = 'v3-0031';
const ROUNDS = Number(process.env.BENCH_ANALYSIS_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_ANALYSIS_REQUESTS ?? 100);
const BUDGET_P99_MS = 100;

const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
const prefix = 'iot-bench-analysis-';
const keepDir = join(tmpdir(), `${prefix}${FILL_VERSION}-${LOCKS}-${today}`);
const filled = join(keepDir, 'filled');
for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(prefix))) {
  const dir = join(tmpdir(), name);
  if (dir !== keepDir || !existsSync(filled) || process.env.BENCH_ANALYSIS_REFILL === '1') rmSync(dir, { recursive: true, force: true });
}
console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the start`);
const postgres = await startPostgres({ keepDir });
if (!postgres) {
  console.warn('PostgreSQL binaries missing: skipped');
  process.exit(0);
}
let failed = false;
try {
  const databaseUrl = postgres.url.replace(/\/postgres$/, '/iot_bench_analysis');
  const started = performance.now();
  if (postgres.reused) {
    await refreshLiveState(databaseUrl);
    console.log(`reused the fill in ${keepDir} (locks' live state refreshed in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } else {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('create database iot_bench_analysis');
    await admin.end();
    await fillAnalysis(databaseUrl);
    writeFileSync(filled, new Date().toISOString());
    console.log(`filled ${LOCKS} locks and ${DAYS} days of rollups in ${((performance.now() - started) / 1000).toFixed(0)} s (kept in ${keepDir})`);
  }
  const sizes = new pg.Client({ connectionString: databaseUrl });
  await sizes.connect();
  const { rows } = await sizes.query(`select relname as table, to_char(n_live_tup, 'FM999,999,999') as rows, pg_size_pretty(pg_total_relation_size(relid)) as size
    from pg_stat_user_tables where relname like 'analysis%' or relname in ('locks', 'alerts', 'commands') order by pg_total_relation_size(relid) desc`);
  console.table(rows);
  const hello = await helloWorld();
  const port = await freePort();
  const { rows: [{ now: serverStart }] } = await sizes.query('select now()');
  const server = await startServer({ DATABASE_URL: databaseUrl, PORT: String(port), MQTT_PORT: String(await freePort()), DEMO: 'on', SIM_LOCKS: '0',
    SIM_AIR_SWITCHES: '0', LOG_LEVEL: 'warn', TOKEN_ROTATE_S: '86400', MAX_EVENT_LOOP_DELAY_MS: '0' });
  try {
    // The analysis job recomputes every forecast at start (and then every 10 min): measure after it.
    const waitStart = performance.now();
    while ((await sizes.query('select max(computed_at) > $1 as done from analysis_battery_forecast', [serverStart])).rows[0]?.done !== true) {
      if (performance.now() - waitStart > 600_000) throw new Error('the forecast job did not finish within 10 min');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    console.log(`the server's start-up forecast run ended after ${((performance.now() - waitStart) / 1000).toFixed(1)} s`);
    // Then its first snapshot of the data centre (modules/analysis/snapshot.ts), which the analysis answers from.
    while ((await sizes.query('select current_at > $1 and lists_at > $1 as done from analysis_snapshots where tenant_id = 100', [serverStart])).rows[0]?.done !== true) {
      if (performance.now() - waitStart > 600_000) throw new Error('the snapshot job did not finish within 10 min');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(`its first snapshot was written ${((performance.now() - waitStart) / 1000).toFixed(1)} s after the start; the job's cost per period: ${await snapshotCost(databaseUrl)}`);
    const base = `http://127.0.0.1:${port}`;
    const token = await signInOverHttp(base);
    const routes = [
      ['Fastify hello world', hello.url],
      ['no database (/oauth/key)', `${base}/oauth/key`],
      ['tenant read path (analysis/feed)', `${base}/iot/v1/lockDevice/analysis/feed`],
      ['analysis, 7 days', `${base}/iot/v1/lockDevice/analysis?days=7`],
      ['analysis, 30 days', `${base}/iot/v1/lockDevice/analysis?days=30`],
      ['analysis, 90 days', `${base}/iot/v1/lockDevice/analysis?days=90`],
    ] as const;
    await firstRequests(routes, token);
    const label = `PostgreSQL (${postgres.version}), ${LOCKS} locks, ${DAYS} days of rollups`;
    const alone = await sequentialRounds(label, routes, token, { rounds: ROUNDS, requests: REQUESTS, baseline: 'Fastify hello world' });
    const figure = alone.get('analysis, 30 days');
    const within = (figure?.p99 ?? Infinity) <= BUDGET_P99_MS && figure?.failed === 0;
    console.log(`budget: 30-day analysis p99 <= ${BUDGET_P99_MS} ms, one request at a time: ${within ? 'met' : 'MISSED'} (p50 ${figure?.p50.toFixed(1)} ms, p99 ${figure?.p99.toFixed(1)} ms; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    if (!within) failed = true;
  } finally {
    await sizes.end();
    await server.stop();
    hello.stop();
  }
} finally {
  postgres.stop();
}
process.exit(failed ? 1 : 0);
