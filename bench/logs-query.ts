/**
 * Log-page query benchmark: BENCH_ROWS (default 1,000,000) heartbeat rows over 1,000 locks (one per
 * 10 min each, ~7 days), filled with generate_series in 100,000-row statements, then timed as the API
 * runs them (the logHeartbeat module's repo functions inside the tenant transaction with row-level
 * security) and as the same SQL run raw on the owner connection, side by side. Prints p50/p99 (ms)
 * and the API/raw ratio (raw = the API's statements without its transaction, row-level security and
 * lock lookup); budget: API p99 <= 50 ms. PostgreSQL (when installed) and PGlite
 * (BENCH_LOGS_DB=postgres|pglite|both, default both). Each query: at most 200 runs or 20 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { provisionLocks, rows } from '../apps/server/integration/devices.js';
import { type Database, openDatabase } from '../apps/server/src/db/client.js';
import { heartbeatLog } from '../apps/server/src/modules/logHeartbeat/repo.js';
import { heartbeatSeries } from '../apps/server/src/modules/logHeartbeat/series.js';
import { startPostgres } from './postgres.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const LOCKS = 1000;
const PER_LOCK = Math.ceil(ROWS / LOCKS);
const MODE = process.env.BENCH_LOGS_DB ?? 'both';
let failed = false;

async function fill(database: Database): Promise<{ locks: { id: number; tenant: number }[]; fillS: number }> {
  await provisionLocks(database, LOCKS);
  const started = Date.now();
  const step = Math.max(1, Math.floor(100_000 / LOCKS));
  for (let from = 1; from <= PER_LOCK; from += step) {
    const to = Math.min(PER_LOCK, from + step - 1);
    await database.system.execute(sql`
      insert into heartbeats (tenant_id, lock_id, seq, battery, rssi, snr, firmware_version, device_ts, received_at)
      select l.tenant_id, l.id, g.s, 20 + (g.s * 7 + l.id) % 80, -110 + (g.s + l.id) % 50, ((g.s % 30) - 5)::real, 'V1.2.3',
        now() - (${PER_LOCK}::int - g.s) * interval '10 minutes', now() - (${PER_LOCK}::int - g.s) * interval '10 minutes'
      from locks l cross join generate_series(${from}::int, ${to}::int) as g(s) where l.simulated`);
  }
  await database.system.execute(sql`analyze`);
  const locks = rows<{ id: number; tenant: number }>(await database.system.execute(sql`select id, tenant_id as tenant from locks where simulated order by id`));
  return { locks, fillS: (Date.now() - started) / 1000 };
}

/** p50 / p99 of `fn` in ms over at most 200 runs or 20 s (after 5 warm-up runs). */
async function time(fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; runs: number }> {
  for (let i = 0; i < 5; i++) await fn(i);
  const samples: number[] = [];
  const end = Date.now() + 20_000;
  for (let i = 0; i < 200 && Date.now() < end; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { p50: at(0.5), p99: at(0.99), runs: samples.length };
}

async function bench(label: string, database: Database): Promise<void> {
  const { locks, fillS } = await fill(database);
  const [count] = rows<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from heartbeats`));
  console.log(`\n${label}: ${count?.n} heartbeat rows over ${locks.length} locks, filled in ${fillS.toFixed(1)} s`);
  const pick = (i: number) => locks[(i * 7919) % locks.length] as { id: number; tenant: number };
  const day = () => ({ startTime: new Date(Date.now() - 24 * 3600 * 1000).toISOString(), endTime: new Date().toISOString() });
  const cases: [string, (i: number) => Promise<unknown>, (i: number) => Promise<unknown>][] = [
    ['list, tenant 100, page 1 of 20', () => database.withTenant(100, (tx) => heartbeatLog.list(tx, {}, 1, 20)), async () => {
      await database.system.execute(sql`select count(*) from (select 1 from heartbeats where tenant_id = 100 limit 10001) capped`);
      await database.system.execute(sql`select h.*, l.imei, l.name, l.building, l.floor, l.room from heartbeats h join locks l on l.id = h.lock_id
        where h.tenant_id = 100 order by h.id desc limit 20`);
    }],
    ['list, one lock, page 3 of 20', (i) => database.withTenant(pick(i).tenant, (tx) => heartbeatLog.list(tx, { lockId: pick(i).id }, 3, 20)), async (i) => {
      await database.system.execute(sql`select count(*) from (select 1 from heartbeats where lock_id = ${pick(i).id} limit 10001) capped`);
      await database.system.execute(sql`select h.*, l.imei, l.name, l.building, l.floor, l.room from heartbeats h join locks l on l.id = h.lock_id
        where h.lock_id = ${pick(i).id} order by h.received_at desc, h.id desc limit 20 offset 40`);
    }],
    ['battery chart, one lock, last 24 h', (i) => database.withTenant(pick(i).tenant, (tx) => heartbeatSeries(tx, { lockId: pick(i).id, ...day() })), async (i) => {
      const { startTime, endTime } = day();
      await database.system.execute(sql`select received_at as time, battery, rssi, snr from heartbeats
        where lock_id = ${pick(i).id} and received_at >= ${startTime}::timestamptz and received_at <= ${endTime}::timestamptz order by received_at, id`);
    }],
    ['battery chart, one lock, 7 days (bucketed)', (i) => database.withTenant(pick(i).tenant, (tx) => heartbeatSeries(tx, { lockId: pick(i).id, startTime: new Date(Date.now() - 7 * 86_400_000).toISOString() })), async (i) => {
      // As the API: the raw points up to SERIES_MAX_POINTS + 1, more than fit, so the hourly averages.
      await database.system.execute(sql`select received_at as time, battery, rssi, snr from heartbeats
        where lock_id = ${pick(i).id} and received_at >= now() - interval '7 days' order by received_at, id limit 501`);
      await database.system.execute(sql`select date_bin(interval '1 hour', received_at, now() - interval '7 days') as time, round(avg(battery), 1)
        from heartbeats where lock_id = ${pick(i).id} and received_at >= now() - interval '7 days' group by 1 order by 1`);
    }],
  ];
  for (const [name, api, raw] of cases) {
    const a = await time(api);
    const r = await time(raw);
    const ok = a.p99 <= 50;
    if (!ok) failed = true;
    console.log(`  ${name.padEnd(44)} API p50 ${a.p50.toFixed(1).padStart(6)} ms p99 ${a.p99.toFixed(1).padStart(6)} ms | raw SQL p50 ${r.p50.toFixed(1).padStart(6)} ms p99 ${r.p99.toFixed(1).padStart(6)} ms | API/raw p50 ${(a.p50 / r.p50).toFixed(2)}x p99 ${(a.p99 / r.p99).toFixed(2)}x ${ok ? '' : ' OVER BUDGET'}`);
  }
}

console.log(`logs-query benchmark: ${ROWS} rows, budget API p99 <= 50 ms`);
if (MODE !== 'pglite') {
  const postgres = await startPostgres();
  if (postgres) {
    const database = await openDatabase({ databaseUrl: postgres.url, dataDir: '' });
    try {
      await bench(postgres.version, database);
    } finally {
      await database.close();
      postgres.stop();
    }
  } else console.log('PostgreSQL server binaries not found: PostgreSQL skipped');
}
if (MODE !== 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'iot-bench-logs-'));
  const database = await openDatabase({ dataDir: dir });
  try {
    await bench('PGlite 0.5.16 (data dir)', database);
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(failed ? '\nlogs-query: BUDGET MISSED (API p99 <= 50 ms)' : '\nlogs-query: within budget');
process.exit(failed ? 1 : 0);
