/**
 * Interleaved autocannon rounds against a running server (bench/api.ts, bench/fleet.ts): every route
 * once per round, `rounds` rounds of `seconds` s, BENCH_CONNECTIONS connections (default 10: an operator
 * team's real concurrency, where the budgets judge p99; run again with 50 to record the heavy case),
 * unpipelined; the median round counts.
 * Only 2xx answers count as throughput (a 503 or a refused connection is not).
 */
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { freePort } from '../apps/server/integration/server-process.js';

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** Answered requests per second and latency (ms) of one route, plus what was not a 2xx. */
export interface Figure {
  rps: number; p50: number; p99: number; non2xx: number;
  /** CPU ms per answered request of each process measured (the `cpu` option), when given. */
  cpuPerRequest?: Record<string, number>;
}

/** Named readers of a process's cumulative CPU time, ms (bench/cpu.ts). */
export type CpuReaders = Record<string, () => number>;

const readAll = (cpu: CpuReaders) => Object.fromEntries(Object.entries(cpu).map(([name, read]) => [name, read()]));

/** `load`, plus each reader's CPU ms per answered request over the load. */
async function measuredLoad(url: string, token: string, seconds: number, cpu: CpuReaders | undefined): Promise<Figure> {
  if (!cpu) return load(url, token, seconds);
  const before = readAll(cpu);
  const figure = await load(url, token, seconds);
  const after = readAll(cpu);
  const answered = Math.max(1, figure.rps * seconds);
  figure.cpuPerRequest = Object.fromEntries(Object.keys(cpu).map((name) => [name, ((after[name] ?? 0) - (before[name] ?? 0)) / answered]));
  return figure;
}

const cpuText = (figure: Figure) => figure.cpuPerRequest
  ? Object.entries(figure.cpuPerRequest).map(([name, ms]) => `${name} ${ms.toFixed(3)}`).join(', ')
  : '';

/** One load of `seconds` s on `url` with the session `token` (data centre 100). */
export async function load(url: string, token: string, seconds: number): Promise<Figure> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { zw_paas_token: token, tenantId: '100' } });
  return { rps: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors + result.timeouts };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/**
 * Runs the rounds over `routes` ([name, absolute url]) after a 1 s warm-up each, prints every round
 * and a markdown table with each route's ratio to the route named `baseline`; returns the medians.
 * `settle`, when given, is awaited before every load (warm-ups included): e.g. until the server has
 * worked off the previous route's backlog, so a slow route does not starve the one measured after it.
 */
export async function interleavedRounds(label: string, routes: readonly (readonly [string, string])[], token: string,
  options: { rounds: number; seconds: number; baseline: string; settle?: () => Promise<void>; cpu?: CpuReaders }): Promise<Map<string, Figure>> {
  const figures = new Map<string, Figure[]>();
  const settle = options.settle ?? (async () => {});
  for (const [, url] of routes) {
    await settle();
    await load(url, token, 1);
  }
  for (let round = 1; round <= options.rounds; round++) {
    for (const [name, url] of routes) {
      await settle();
      const figure = await measuredLoad(url, token, options.seconds, options.cpu);
      figures.set(name, [...(figures.get(name) ?? []), figure]);
      const cpu = figure.cpuPerRequest ? `, CPU ms/request: ${cpuText(figure)}` : '';
      console.log(`${label} round ${round} ${name}: ${figure.rps.toFixed(0)} req/s, p50 ${figure.p50} ms, p99 ${figure.p99} ms${figure.non2xx ? `, ${figure.non2xx} non-2xx/errors` : ''}${cpu}`);
    }
  }
  const result = new Map<string, Figure>();
  for (const [name, list] of figures) {
    const cpuNames = Object.keys(list[0]?.cpuPerRequest ?? {});
    const cpuPerRequest = cpuNames.length === 0 ? undefined
      : Object.fromEntries(cpuNames.map((cpuName) => [cpuName, median(list.map((f) => f.cpuPerRequest?.[cpuName] ?? 0))]));
    result.set(name, { rps: median(list.map((f) => f.rps)), p50: median(list.map((f) => f.p50)), p99: median(list.map((f) => f.p99)), non2xx: list.reduce((n, f) => n + f.non2xx, 0), cpuPerRequest });
  }
  const base = result.get(options.baseline)?.rps ?? 1;
  console.log(`\n${label}: median of ${options.rounds} interleaved rounds, ${CONNECTIONS} connections, ${options.seconds} s each`);
  console.log(`| route | req/s | ratio | p50 ms | p99 ms | non-2xx |${options.cpu ? ' CPU ms/request |' : ''}\n|---|---|---|---|---|---|${options.cpu ? '---|' : ''}`);
  for (const [name, f] of result) console.log(`| ${name} | ${f.rps.toFixed(0)} | ${(f.rps / base).toFixed(3)}x | ${f.p50} | ${f.p99} | ${f.non2xx} |${options.cpu ? ` ${cpuText(f)} |` : ''}`);
  return result;
}

/** A bare Fastify hello world in a child process (the baseline); resolves with its url and a stop function. */
export async function helloWorld(): Promise<{ url: string; pid: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--input-type=module', '-e', `import Fastify from 'fastify';
    const app = Fastify(); app.get('/', async () => ({ hello: 'world' }));
    await app.listen({ port: ${port}, host: '127.0.0.1' }); console.log('listening');`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => { if (chunk.toString().includes('listening')) resolve(); });
    child.once('exit', (code) => reject(new Error(`hello world exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid as number, stop: () => child.kill() };
}

/** Asks each route once, alone (a cold start), as tenant 100 with `token`, and prints its status, time (ms) and size. */
export async function firstRequests(routes: readonly (readonly [string, string])[], token: string): Promise<void> {
  for (const [name, url] of routes) {
    const started = performance.now();
    const response = await fetch(url, { headers: { zw_paas_token: token, tenantId: '100' } });
    const body = await response.text();
    console.log(`first ${name}: ${response.status} in ${(performance.now() - started).toFixed(0)} ms, ${body.length} bytes`);
  }
}
