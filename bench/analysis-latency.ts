/**
 * Latency of single requests for bench/analysis.ts: each route asked one request at a time (the next
 * after the previous answer, one keep-alive connection), in interleaved rounds, so a slow minute of a
 * shared machine hits every route alike; percentiles over every request of every round. (The hello-world
 * baseline is bench/http-rounds.ts's.)
 */

/** Latency (ms) of a route asked alone, and the requests per second that makes. */
export interface Latency { p50: number; p99: number; max: number; rps: number; failed: number }

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/**
 * Asks every route of `routes` ([name, absolute url]) `requests` times per round, `rounds` rounds, with
 * the session `token` (data centre 100), after 5 warm-up requests each; prints every round and a
 * markdown table with each route's requests per second relative to the route named `baseline`.
 */
export async function sequentialRounds(label: string, routes: readonly (readonly [string, string])[], token: string,
  options: { rounds: number; requests: number; baseline: string }): Promise<Map<string, Latency>> {
  const headers = { zw_paas_token: token, tenantId: '100' };
  const samples = new Map<string, number[]>(routes.map(([name]) => [name, []]));
  const failures = new Map<string, number>(routes.map(([name]) => [name, 0]));
  const ask = async (name: string, url: string) => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (!response.ok) failures.set(name, (failures.get(name) ?? 0) + 1);
    return performance.now() - started;
  };
  for (const [name, url] of routes) for (let i = 0; i < 5; i++) await ask(name, url);
  for (let round = 1; round <= options.rounds; round++) {
    for (const [name, url] of routes) {
      const times: number[] = [];
      for (let i = 0; i < options.requests; i++) times.push(await ask(name, url));
      samples.get(name)?.push(...times);
      times.sort((a, b) => a - b);
      console.log(`${label} round ${round} ${name}: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`);
    }
  }
  const result = new Map<string, Latency>();
  for (const [name, list] of samples) {
    const sorted = [...list].sort((a, b) => a - b);
    const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
    result.set(name, { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN, rps: 1000 / mean, failed: failures.get(name) ?? 0 });
  }
  const base = result.get(options.baseline)?.rps ?? 1;
  console.log(`\n${label}: ${options.rounds} interleaved rounds of ${options.requests} requests per route, one at a time`);
  console.log('| route | req/s (one at a time) | ratio | p50 ms | p99 ms | max ms | failed |\n|---|---|---|---|---|---|---|');
  for (const [name, f] of result) {
    console.log(`| ${name} | ${f.rps.toFixed(0)} | ${(f.rps / base).toFixed(3)}x | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.max.toFixed(1)} | ${f.failed} |`);
  }
  return result;
}

