/**
 * `npm run bench`: runs every benchmark one after the other (each in its own process, so one's
 * memory and event loop do not disturb the next) and exits non-zero when one missed its budget.
 * Arguments pick benchmarks by name (`npm run bench -- ingest`). Not part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const all = ['ingest', 'logs-query', 'web', 'lighthouse', 'first-start', 'api', 'fleet', 'push', 'airswitch', 'ota', 'analysis', 'heavy-requests', 'idle', 'sse', 'stays', 'heartbeats-100m'];
// Minutes a benchmark may take: the 100 M heartbeat fill takes hours the first time (it resumes after a timeout).
const minutes = (name: string) => (name === 'heartbeats-100m' ? 240 : ['idle', 'stays'].includes(name) ? 30 : 15);
const picked = process.argv.slice(2).length ? process.argv.slice(2) : all;
let failed = false;
for (const name of picked) {
  if (!all.includes(name)) throw new Error(`unknown benchmark ${name}; one of ${all.join(', ')}`);
  console.log(`\n=== bench/${name}.ts (${new Date().toISOString()}) ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, `${name}.ts`)], { stdio: 'inherit', timeout: minutes(name) * 60_000 });
  console.log(`=== ${name}: ${result.status === 0 ? 'within budget' : 'BUDGET MISSED or failed'} in ${((Date.now() - started) / 1000).toFixed(0)} s ===`);
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
