/**
 * First start: what a newcomer waits for after `npm ci`. Removes the builds
 * (apps/web/dist, apps/server/dist), runs `npm start` on a fresh data directory (temporary; free HTTP
 * and MQTT ports) and times it until GET /readyz answers 200 (and until it printed the sign-in), with the phases `npm start` prints (web
 * build, server build, server start) and the machine's load average. Budget: <= 60 s on a quiet
 * machine; on a busy one the figures are printed with the load and judged against 60 s x (load / 2
 * cores), at least 60 s. Also prints the CPU time of the whole process tree (builds and server, from
 * /proc: utime + stime of each process, with its reaped children), which the load does not inflate
 * much: on a quiet machine the wait lies between CPU / cores and CPU. And counts the lines printed
 * before the sign-in (they were ~570 lines of asset sizes).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../apps/server/integration/server-process.js';

const BUDGET_MS = 60_000;
const root = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'bench-first-start-'));
rmSync(join(root, 'apps/web/dist'), { recursive: true, force: true });
rmSync(join(root, 'apps/server/dist'), { recursive: true, force: true });
const [port, mqttPort] = [await freePort(), await freePort()];
const loadBefore = loadavg()[0] ?? 0;
const started = Date.now();
const child = spawn('npm', ['start'], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, PORT: String(port), MQTT_PORT: String(mqttPort), DATA_DIR: dataDir, HOST: '127.0.0.1' } });
const output: string[] = [];
const seen = new Map<string, number>();
for (const stream of [child.stdout, child.stderr]) {
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      output.push(line);
      for (const mark of ['Built the web app', 'Built the server', 'is running']) if (line.includes(mark) && !seen.has(mark)) seen.set(mark, Date.now() - started);
    }
  });
}
/** CPU seconds of every process of the group so far (each one's own and its reaped children's). */
function groupCpuSeconds(group: number): number {
  const pids = spawnSync('ps', ['-o', 'pid=', '-g', String(group)], { encoding: 'utf8' }).stdout.split('\n').map((pid) => pid.trim()).filter(Boolean);
  const ticks = pids.reduce((sum, pid) => {
    try {
      // Fields after the command's closing parenthesis: utime, stime, cutime, cstime are the 14th-17th of the line.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return sum + [11, 12, 13, 14].reduce((total, index) => total + Number(fields[index] ?? 0), 0);
    } catch {
      return sum; // gone meanwhile
    }
  }, 0);
  return ticks / 100; // USER_HZ
}
let cpuSeconds = 0;
let readyMs = 0;
try {
  while (Date.now() - started < 300_000) {
    if (!readyMs && (await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.ok, () => false))) readyMs = Date.now() - started;
    if (readyMs && seen.has('is running')) {
      cpuSeconds = groupCpuSeconds(child.pid as number);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
} finally {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  process.kill(-(child.pid as number), 'SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
const load = (loadBefore + (loadavg()[0] ?? 0)) / 2;
const allowed = Math.max(BUDGET_MS, (BUDGET_MS * load) / cpus().length);
const signInLine = output.findIndex((line) => line.includes('Demo sign-in'));
const s = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);
console.log(`first start: ready after ${s(readyMs)} (web built at ${s(seen.get('Built the web app'))}, server built at ${s(seen.get('Built the server'))},`
  + ` running at ${s(seen.get('is running'))}); CPU ${cpuSeconds.toFixed(1)} s; load average ${load.toFixed(2)} on ${cpus().length} CPUs;`
  + ` ${signInLine} lines before the sign-in`);
console.log('last lines printed:');
console.log(output.slice(Math.max(0, signInLine - 12), signInLine + 4).join('\n'));
const ok = readyMs > 0 && readyMs <= allowed;
console.log(ok ? `first start: within budget (${s(allowed)} at this load)` : `first start: BUDGET MISSED (${s(allowed)} at this load)`);
process.exit(ok ? 0 : 1);
