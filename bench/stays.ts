/**
 * Stays at hotel scale, on PostgreSQL (Debian's server binaries; skipped
 * without them): BENCH_STAYS (default 2,000) stays checked in within one hour across as many sleeping
 * NB-IoT locks (bench/stays-fleet.ts, a wake every BENCH_STAYS_HEARTBEAT_S = 20 s), one guest and one
 * room (one lock) each, through the real compiled server process (embedded broker), after a baseline
 * of BENCH_STAYS_BASELINE (default 200; 0: none) stays on other locks measured the same way in the same run.
 * Time is compressed BENCH_STAYS_SPEED (default 30) times: the stays job runs in its own process with
 * a scaled clock (bench/stays-job.ts), so a lock waking every 20 s wakes every 10 minutes of the
 * platform's time; the bookings (POST /iot/v1/stay/add), the credentials (issued by the job at
 * check-in - 1 h - lead time), the lock sync and the check-ins (POST /iot/v1/stay/checkIn at each
 * stay's scaled check-in time, spread over one scaled hour) are the production paths.
 * Per phase: stays booked, doors issued, issue -> 正常 (both commands of the door confirmed) p50/p99,
 * doors 正常 before their check-in and before the 1-hour readiness check, ready at check-in (the
 * check-in's answer), stay.notReady raised, platform CPU (server + PostgreSQL + the job process) in
 * % of one core and ms per stay beside the heartbeats-only rate; then the ratio to the baseline.
 * Fails when a door was not 正常 before its check-in. Figures for bench/RESULTS.md.
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { STAY_ALERT_BEFORE_MS, STAY_LEAD_MARGIN_MS } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { provisionLocks, rows } from '../apps/server/integration/devices.js';
import { freePort, type ServerProcess, signInOverHttp, startServer } from '../apps/server/integration/server-process.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { cpuMs, postmasterPid } from './cpu.js';
import { startPostgres } from './postgres.js';

const STAYS = Number(process.env.BENCH_STAYS ?? 2000);
const BASELINE = Number(process.env.BENCH_STAYS_BASELINE ?? 200);
const SPEED = Number(process.env.BENCH_STAYS_SPEED ?? 30);
const HEARTBEAT_S = Number(process.env.BENCH_STAYS_HEARTBEAT_S ?? 20);
const IDLE_S = Number(process.env.BENCH_STAYS_IDLE_S ?? 20);
const WAKE_WINDOW_MS = 3000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
const s1 = (ms: number) => (ms / 1000).toFixed(1);

const postgres = await startPostgres();
if (!postgres) {
  console.log('stays: PostgreSQL server binaries not found: skipped');
  process.exit(0);
}
const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-stays-'));
const database = await openDatabase({ databaseUrl: postgres.url, dataDir: '' });
let server: ServerProcess | undefined;
let job: ChildProcess | undefined;
let fleet: ChildProcess | undefined;
let failed = false;
type Clock = { t0: number; v0: number };
let clock: Clock | undefined;
const platformNow = () => (clock ? clock.v0 + SPEED * (Date.now() - clock.t0) : Date.now());

/** Platform CPU ms (server, PostgreSQL cluster, job process) since the call, with the wall time. */
function cpuWindow(serverPid: number, postmaster: number, jobPid: number) {
  const read = () => ({ server: cpuMs(serverPid), postgres: cpuMs(postmaster, true), job: cpuMs(jobPid) });
  const start = { at: performance.now(), ...read() };
  return () => {
    const end = read();
    const cpu = { server: end.server - start.server, postgres: end.postgres - start.postgres, job: end.job - start.job };
    return { wallMs: performance.now() - start.at, ...cpu, total: cpu.server + cpu.postgres + cpu.job };
  };
}
type Window = ReturnType<ReturnType<typeof cpuWindow>>;
const share = (w: Window) => `${((w.total * 100) / w.wallMs).toFixed(1)} % (server ${((w.server * 100) / w.wallMs).toFixed(1)}, PostgreSQL ${((w.postgres * 100) / w.wallMs).toFixed(1)}, job ${((w.job * 100) / w.wallMs).toFixed(1)})`;

try {
  const t0 = performance.now();
  // 4 in 5 simulated locks are in data centre 100, each in a room of its own; the baseline's are not the main phase's
  // (a simulated lock started afresh would number its uplinks from 1 again, which the gateway takes for replays).
  const devices = (await provisionLocks(database, Math.ceil((STAYS + BASELINE) / 0.8) + 5)).filter((d) => d.tenantId === 100);
  const rooms = rows<{ imei: string; building: string; floor: string; room: string }>(await database.system.execute(
    sql`select imei, building, floor, room from locks where tenant_id = 100 and simulated`));
  const roomOf = new Map(rooms.map((r) => [r.imei, { building: r.building, floor: r.floor, room: r.room }]));
  await database.system.execute(sql`vacuum analyze`);
  await database.system.execute(sql`checkpoint`);
  const build = spawnSync(process.execPath, [join(import.meta.dirname, '../scripts/server-build.mjs')], { encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`server build failed: ${build.stderr}`);
  const port = await freePort();
  const mqttPort = await freePort();
  server = await startServer({
    DATABASE_URL: postgres.url, DATA_DIR: dataDir, PORT: String(port), MQTT_PORT: String(mqttPort), DEMO: 'on', SIM_LOCKS: '0',
    SIM_AIR_SWITCHES: '0', LOG_LEVEL: 'warn', TOKEN_ROTATE_S: '86400', MAX_EVENT_LOOP_DELAY_MS: '0', WAKE_WINDOW_MS: String(WAKE_WINDOW_MS),
  }, 120_000, { compiled: true });
  const postmaster = postmasterPid(postgres.dataDir);
  job = fork(join(import.meta.dirname, 'stays-job.ts'), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const jobStarted = new Promise((resolve) => job?.once('message', resolve));
  job.send({ databaseUrl: postgres.url, dataDir, speed: SPEED });
  await jobStarted;
  const base = `http://127.0.0.1:${port}`;
  const token = await signInOverHttp(base);
  const api = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { zw_paas_token: token, tenantId: '100', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text).data as { id: number; readiness: string; issueDueAt: string };
  };
  console.log(`stays benchmark: ${STAYS} stays (baseline ${BASELINE}), sleeping locks waking every ${HEARTBEAT_S} s (awake ${WAKE_WINDOW_MS / 1000} s), time x${SPEED}` +
    ` (a wake every ${((HEARTBEAT_S * SPEED) / 60).toFixed(1)} platform minutes), ${postgres.version}; set up in ${s1(performance.now() - t0)} s; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  /** One phase: `n` stays on the `n` locks from `from`; returns its CPU ms per stay and CPU shares. */
  const phase = async (n: number, from: number) => {
    const locks = devices.slice(from, from + n);
    const started = performance.now();
    fleet = fork(join(import.meta.dirname, 'stays-fleet.ts'), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    const ready = new Promise((resolve) => fleet?.once('message', resolve));
    fleet.send({ devices: locks, url: `mqtt://127.0.0.1:${mqttPort}`, heartbeatS: HEARTBEAT_S, wakeWindowMs: WAKE_WINDOW_MS });
    await ready;
    await sleep(HEARTBEAT_S * 1000);
    const idle = cpuWindow(server?.pid ?? 0, postmaster, job?.pid ?? 0);
    await sleep(IDLE_S * 1000);
    const quiet = idle();
    // Check-ins spread over one platform hour, starting once the lead time (1 h + a wake + margin) and a little slack have passed.
    const v0 = platformNow();
    job?.send('pause'); // the platform's clock stands still while the front desk books
    const first = v0 + STAY_ALERT_BEFORE_MS + HEARTBEAT_S * 1000 + STAY_LEAD_MARGIN_MS + 5 * MINUTE;
    const plan = locks.map((d, i) => ({ room: roomOf.get(d.imei), checkInAt: first + Math.floor((i * HOUR) / n) }));
    const booking = cpuWindow(server?.pid ?? 0, postmaster, job?.pid ?? 0);
    const ids: number[] = new Array(n);
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let i = next++; i < n; i = next++) {
        const p = plan[i] as (typeof plan)[number];
        const stay = await api('/iot/v1/stay/add', { room: p.room, kind: 'hotelNight', checkInAt: new Date(p.checkInAt).toISOString(),
          checkOutAt: new Date(p.checkInAt + 30 * MINUTE).toISOString(), guests: [{ name: `住客${i}`, mobile: `139${String(i).padStart(8, '0')}` }], reference: `BENCH-${v0}-${i}` });
        if (stay.readiness !== 'pending') throw new Error(`stay ${stay.id} issued at booking (${stay.readiness})`);
        ids[i] = stay.id;
      }
    }));
    const booked = booking();
    clock = { t0: Date.now(), v0 };
    const phaseClock = clock;
    job?.send(phaseClock);
    const running = cpuWindow(server?.pid ?? 0, postmaster, job?.pid ?? 0);
    const readyAtCheckIn = await Promise.all(plan.map(async (p, i) => {
      await sleep(phaseClock.t0 + (p.checkInAt - phaseClock.v0) / SPEED - Date.now());
      return (await api('/iot/v1/stay/checkIn', { id: ids[i] })).readiness === 'ready';
    }));
    const run = running();
    fleet.send('stop');
    await new Promise((resolve) => fleet?.once('exit', resolve));
    const doors = rows<{ checkIn: string; dueAt: string; queued: string | null; done: string | null; us: string | null; cs: string | null }>(await database.system.execute(sql`
      select s.check_in_at as "checkIn", s.issue_due_at as "dueAt", least(cu.created_at, cc.created_at) as queued, greatest(cu.completed_at, cc.completed_at) as done, lu.sync_state as us, c.sync_state as cs
      from stay_doors sd join stays s on s.id = sd.stay_id left join lock_users lu on lu.id = sd.lock_user_id left join credentials c on c.id = sd.credential_id
      left join commands cu on cu.id = lu.last_command_id left join commands cc on cc.id = c.last_command_id
      where sd.stay_id between ${Math.min(...ids)} and ${Math.max(...ids)}`));
    const platform = (at: string) => phaseClock.v0 + SPEED * (Date.parse(at) - phaseClock.t0);
    const normal = doors.filter((d) => d.us === 'normal' && d.cs === 'normal' && d.done && d.queued);
    const took = normal.map((d) => Date.parse(d.done as string) - Date.parse(d.queued as string)).sort((a, b) => a - b);
    const beforeCheckIn = normal.filter((d) => platform(d.done as string) < Date.parse(d.checkIn)).length;
    const beforeCheck = normal.filter((d) => platform(d.done as string) < Date.parse(d.checkIn) - STAY_ALERT_BEFORE_MS).length;
    const readyCount = readyAtCheckIn.filter(Boolean).length;
    // How late the job issued each door after its due time, platform minutes (the job keeping up with the scaled clock).
    const late = doors.filter((d) => d.queued).map((d) => (platform(d.queued as string) - Date.parse(d.dueAt)) / MINUTE).sort((a, b) => a - b);
    if (beforeCheckIn !== doors.length || doors.length < n) failed = true;
    const stayMs = Math.max(0, run.total - (quiet.total * run.wallMs) / quiet.wallMs) / n;
    console.log(`\n  ${n} stays on ${n} sleeping locks (phase took ${s1(performance.now() - started)} s; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}):`);
    console.log(`    booked ${ids.length} in ${s1(booked.wallMs)} s (${((booked.total) / n).toFixed(1)} ms platform CPU a booking); doors issued ${doors.length}; ${normal.length} 正常`);
    console.log(`    issue -> 正常: p50 ${s1(pct(took, 50))} s, p99 ${s1(pct(took, 99))} s, max ${s1(took.at(-1) ?? Number.NaN)} s real` +
      ` (x${SPEED}: p50 ${s1(pct(took, 50) * SPEED / 60)} min, p99 ${s1(pct(took, 99) * SPEED / 60)} min platform time)`);
    console.log(`    issued after the due time: p50 ${pct(late, 50).toFixed(1)} min, p99 ${pct(late, 99).toFixed(1)} min, max ${(late.at(-1) ?? Number.NaN).toFixed(1)} min platform time`);
    console.log(`    正常 before check-in: ${beforeCheckIn} of ${doors.length}; before the 1-hour check: ${beforeCheck}; ready at check-in (its answer): ${readyCount} of ${n}`);
    console.log(`    CPU, heartbeats only (${s1(quiet.wallMs)} s): ${share(quiet)}`);
    console.log(`    CPU, issue to last check-in (${s1(run.wallMs)} s): ${share(run)}; ${(run.total / n).toFixed(1)} ms a stay, ${stayMs.toFixed(1)} ms a stay above the heartbeats`);
    return { perStay: stayMs + booked.total / n, share: (run.total * 100) / run.wallMs, quietShare: (quiet.total * 100) / quiet.wallMs };
  };
  const small = BASELINE > 0 ? await phase(BASELINE, STAYS) : undefined;
  const large = await phase(STAYS, 0);
  if (small) console.log(`\n  ratio ${STAYS} / ${BASELINE}: CPU share ${(large.share / small.share).toFixed(2)}x (heartbeats only ${(large.quietShare / small.quietShare).toFixed(2)}x);` +
    ` CPU per stay (booking + issue + check-in, above the heartbeats) ${large.perStay.toFixed(1)} ms vs ${small.perStay.toFixed(1)} ms = ${(large.perStay / small.perStay).toFixed(2)}x`);
} finally {
  if (fleet && fleet.exitCode === null) fleet.send('stop');
  if (job && job.exitCode === null) {
    const summary = new Promise((resolve) => job?.once('message', resolve));
    job.send('stop');
    console.log(`  stays job (scaled clock): ${JSON.stringify(await Promise.race([summary, sleep(60_000)]))}`);
  }
  await server?.stop();
  await database.close();
  postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(failed ? 'stays: a door was not 正常 before its check-in' : 'stays: done');
process.exit(failed ? 1 : 0);
