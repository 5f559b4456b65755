/**
 * Air switch benchmark, on PostgreSQL (Debian's server binaries; skipped without them):
 * 1. ingest: BENCH_SWITCHES (default 1,000) air switch connections keep 2 QoS 1 telemetry messages of
 *    4 circuits each unacknowledged for BENCH_SECONDS (10 s) against bare aedes (pass-through, nothing
 *    stored) and against the gateway (auth, validation, group commit, readings, hourly/daily rollups,
 *    PUBACK after commit), BENCH_ROUNDS (3) rounds interleaved; medians, ratio to pass-through, no loss
 *    (uplinks stored == PUBACKs == sent). The need is 1,000 switches every 10 s = 100 msg/s; budget:
 *    persisted >= 0.5x pass-through and >= 10x the need, no loss.
 * 2. query: 32 days of hourly rollups for those switches' 4,000 circuits (3.07M rows, airswitch-seed.ts)
 *    with the daily and data centre rows summed from them, then the 30-day energy analysis (GET
 *    /iot/v1/airSwitch/energy's service, in the tenant's read path) BENCH_QUERIES (200) times each: the
 *    whole data centre in the rollup zone, in UTC and for 30 days ending 2 days ago, and one switch;
 *    p50 / p99 beside the previous statements' shape (the circuits' daily rows scanned) and `select 1`
 *    through the same path; the top consumers checked against the hourly rows' sums. Budget: p99 <= 100 ms.
 */
import { fork } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { sql } from 'drizzle-orm';
import { hashDeviceSecret } from '../apps/server/src/crypto/device-secret.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateDatabase } from '../apps/server/src/db/migrate.js';
import { rowsOf } from '../apps/server/src/db/rows.js';
import { seedDemo } from '../apps/server/src/demo/seed.js';
import { startGateway } from '../apps/server/src/gateway/index.js';
import { silentLog } from '../apps/server/src/gateway/log.js';
import { energyAnalysis } from '../apps/server/src/modules/airSwitch/analysis.js';
import { seedEnergyHistory } from './airswitch-seed.js';
import { startPostgres } from './postgres.js';

const SWITCHES = Number(process.env.BENCH_SWITCHES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const NEED = SWITCHES / 10;
const SECRET = 'bench-air-switch-secret';

interface LoadResult { rate: number; sent: number; acked: number; drained: boolean }
const devices = Array.from({ length: SWITCHES }, (_, i) => ({ serial: `ASBENCH${String(i).padStart(6, '0')}`, secret: SECRET, seq: 0 }));

function runLoad(url: string): Promise<LoadResult> {
  const child = fork(join(import.meta.dirname, 'load-worker.ts'), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('load timed out')); }, (SECONDS + 120) * 1000);
    let rate = 0;
    child.on('message', (m: Record<string, number | boolean>) => {
      if (m.ready) child.send('go');
      else if (m.windowMs) rate = ((m.windowAcked as number) * 1000) / (m.windowMs as number);
      else if ('drained' in m) { clearTimeout(timer); resolve({ rate, sent: m.sent as number, acked: m.acked as number, drained: m.drained as boolean }); }
    });
    child.on('exit', (code) => { if (code) { clearTimeout(timer); reject(new Error(`load exited ${code}`)); } });
    child.send({ kind: 'airSwitch', devices, url, window: 2, durationMs: SECONDS * 1000 });
  });
}

async function passThrough(): Promise<LoadResult> {
  const broker = await Aedes.createBroker({ authenticate: (_c, _u, _p, done) => done(null, true), authorizePublish: (_c, _p, done) => done(null) });
  const server = createServer(broker.handle).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await runLoad(`mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => broker.close(() => resolve(undefined)));
    server.close();
  }
}

const postgres = await startPostgres();
if (!postgres) {
  console.log('PostgreSQL server binaries not found: air switch benchmark skipped');
  process.exit(0);
}
const database = await openDatabase({ databaseUrl: postgres.url, dataDir: '' });
let failed = false;
try {
  await migrateDatabase(database);
  await seedDemo(database, { simLocks: 0, adminPassword: 'bench-admin-pass', operatorPassword: 'bench-operator-pass' });
  await database.system.execute(sql`
    with s as (
      insert into air_switches (tenant_id, serial, name, model)
      select 100, serial, serial, 'ZG-AS4' from unnest(${sql.param(devices.map((d) => d.serial))}::text[]) serial returning id, serial),
    registered as (
      insert into devices (tenant_id, device_kind, air_switch_id, client_id, secret_hash) select 100, 'airSwitch', id, serial, ${hashDeviceSecret(SECRET)} from s)
    insert into air_switch_circuits (tenant_id, air_switch_id, circuit, name) select 100, s.id, n, 'L' || n from s, generate_series(1, 4) n`);
  const ingestHour = new Date(Math.floor(Date.now() / 3600_000) * 3600_000);
  const count = async () => rowsOf<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from air_switch_uplinks`))[0]?.n ?? 0;
  console.log(`air switch ingest: ${SWITCHES} switches x 4 circuits, window 2, ${SECONDS} s per mode, ${ROUNDS} rounds; need ${NEED} msg/s (every 10 s)`);
  const rates: Record<'pass' | 'persisted', number[]> = { pass: [], persisted: [] };
  let lossFree = true;
  for (let round = 1; round <= ROUNDS; round++) {
    const pass = await passThrough();
    rates.pass.push(pass.rate);
    for (const device of devices) device.seq = round * 1_000_000; // a new seq range per round: nothing is a duplicate
    const before = await count();
    const gateway = await startGateway({ database, config: { MQTT_PORT: 0, HOST: '127.0.0.1', MQTT_URL: undefined }, log: silentLog });
    const stored = await runLoad(`mqtt://127.0.0.1:${gateway.port}`).finally(() => gateway.close());
    const rows = (await count()) - before;
    rates.persisted.push(stored.rate);
    lossFree &&= stored.drained && rows === stored.acked && stored.acked === stored.sent;
    console.log(`  round ${round}: pass-through ${pass.rate.toFixed(0)} msg/s; gateway + PostgreSQL ${stored.rate.toFixed(0)} msg/s, sent ${stored.sent} acked ${stored.acked} stored ${rows}`);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const ratio = median(rates.persisted) / median(rates.pass);
  const ingestOk = lossFree && ratio >= 0.5 && median(rates.persisted) >= 10 * NEED;
  console.log(`ingest median: pass-through ${median(rates.pass).toFixed(0)} msg/s, persisted ${median(rates.persisted).toFixed(0)} msg/s = ${ratio.toFixed(2)}x pass-through, ` +
    `${(median(rates.persisted) / NEED).toFixed(1)}x the need${lossFree ? ', no loss' : ', LOSS'}  [budget >= 0.5x, >= 10x need] ${ingestOk ? 'ok' : 'MISSED'}`);
  if (!ingestOk) failed = true;

  // 32 days of hourly history before the ingest rounds' hour (4,000 circuits: 3.07M rows), daily and data centre rows from them.
  await seedEnergyHistory(database, ingestHour, 32, 'Asia/Shanghai');
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const from = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() - 29 * 86_400_000));
  const time = async (fn: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const start = performance.now();
      await fn();
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    return { p50: samples[Math.floor(QUERIES * 0.5)] as number, p99: samples[Math.floor(QUERIES * 0.99)] as number };
  };
  const query = { from, to: today, granularity: 'day' as const, timeZone: 'Asia/Shanghai' };
  const analysis = (q: Parameters<typeof energyAnalysis>[1]) => database.readTenant(100, (db) => energyAnalysis(db, q, 'Asia/Shanghai'));
  const result = await analysis(query);
  // The top consumers must be the hourly rows' sums over the range (what the API answered before the cumulative kWh).
  const truth = rowsOf<{ circuit_id: number; kwh: number }>(await database.system.execute(sql`
    select circuit_id, sum(kwh)::float8 as kwh from air_switch_energy_hourly
    where hour >= ${from}::date::timestamp at time zone 'Asia/Shanghai' and hour < (${today}::date + 1)::timestamp at time zone 'Asia/Shanghai'
    group by 1 order by 2 desc limit 10`));
  const same = truth.length === result.top.length && truth.every((t, i) => t.circuit_id === result.top[i]?.circuitId && Math.abs(t.kwh - (result.top[i]?.kwh ?? 0)) < 0.001);
  const day = (daysAgo: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date(Date.now() - daysAgo * 86_400_000));
  const past = await time(() => analysis({ ...query, from: day(31), to: day(2) }));
  const energy = await time(() => analysis(query));
  const utc = await time(() => analysis({ ...query, timeZone: 'UTC' }));
  const one = await time(() => analysis({ ...query, airSwitchId: 1 + Math.floor(Math.random() * SWITCHES) }));
  const base = await time(() => database.readTenant(100, (db) => db.execute(sql`select 1`)));
  // Baseline: the statement shape before the data centre's hourly kWh (one pass over the circuits' daily
  // rows joined to their circuits, per period; a second one for the top 10), without the covering index it later had.
  const perCircuitDay = sql`select d.circuit_id, d.day, d.kwh, d.trips from air_switch_energy_daily d join air_switch_circuits c on c.id = d.circuit_id
    where d.day between ${from}::date and ${today}::date`;
  const before = await time(() => database.readTenant(100, async (db) => {
    await db.execute(sql`select to_char(day, 'YYYY-MM-DD') as period, sum(kwh)::float8, sum(trips)::int from (${perCircuitDay}) r group by 1 order by 1`);
    await db.execute(sql`select circuit_id, sum(kwh)::float8 from (${perCircuitDay}) x group by 1 order by 2 desc limit 10`);
  }));
  const queryOk = same && energy.p99 <= 100 && utc.p99 <= 100 && past.p99 <= 100 && one.p99 <= 100;
  const ms = (t: { p50: number; p99: number }) => `p50 ${t.p50.toFixed(1)} ms, p99 ${t.p99.toFixed(1)} ms`;
  console.log(`energy query, 30 days x ${SWITCHES * 4} circuits (${result.byPeriod.length} days, top ${result.top.length}), ${QUERIES} runs each:\n` +
    `  data centre, rollup zone: ${ms(energy)} = ${(energy.p99 / before.p99).toFixed(3)}x the baseline's p99\n` +
    `  top consumers ${same ? 'equal' : 'DIFFER from'} the hourly rows' sums over the range\n` +
    `  data centre, UTC: ${ms(utc)}\n  data centre, 30 days ending 2 days ago: ${ms(past)}\n  one switch: ${ms(one)}\n` +
    `  baseline, the daily rows scanned per period and top 10 (two of the four statements): ${ms(before)}\n` +
    `  select 1 through the same path: ${ms(base)}\n  [budget p99 <= 100 ms] ${queryOk ? 'ok' : 'MISSED'}`);
  if (!queryOk) failed = true;
} finally {
  await database.close();
  postgres.stop();
}
console.log(failed ? 'airswitch: BUDGET MISSED' : 'airswitch: within budget');
process.exit(failed ? 1 : 0);
