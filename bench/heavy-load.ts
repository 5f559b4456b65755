/**
 * Load generator of bench/heavy-requests.ts, in its own process (the server's event loop is the one
 * measured): 20 autocannon connections of API reads (lock list, heartbeat log page, userInfo) for
 * `seconds`, and, when `heavy`, at the same time three loops of heavy requests until the reads end:
 * a 10,000-row lock import (.xlsx, new IMEIs each time), the 100,000-row heartbeat export (CSV and
 * .xlsx in turn, read to the end) and a firmware upload of 4 MiB (a ZGFW package signed with the demo
 * vendor key, so it is inspected, hashed and stored like a vendor's). Driven over IPC:
 * parent -> { base, token, seconds, heavy, round, kinds }; child -> { reads, heavy: [{ name, status, ms, bytes }] }.
 */
import autocannon from 'autocannon';
import { importRows, xlsxOf } from '../apps/server/test/spreadsheet-fixtures.js';
import { signDemoFirmware } from '../apps/simulator/src/vendor.js';

interface Job { base: string; token: string; seconds: number; heavy: boolean; round: number; kinds: string[] }
interface Heavy { name: string; status: number; ms: number; bytes: number }

const job = await new Promise<Job>((resolve) => process.once('message', (m) => resolve(m as Job)));
const headers = { zw_paas_token: job.token, tenantId: '100' };
const until = Date.now() + job.seconds * 1000;

async function timed(name: string, request: () => Promise<Response>): Promise<Heavy> {
  const started = performance.now();
  const response = await request();
  const bytes = (await response.arrayBuffer()).byteLength;
  return { name, status: response.status, ms: performance.now() - started, bytes };
}

/** Runs `make(i)` again and again until the reads end (at least once). */
async function loop(make: (i: number) => Promise<Heavy>): Promise<Heavy[]> {
  const done: Heavy[] = [];
  for (let i = 0; i === 0 || Date.now() < until; i++) done.push(await make(i));
  return done;
}

const form = (fields: Record<string, string>, name: string, bytes: Uint8Array<ArrayBuffer>) => {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  body.append('file', new Blob([bytes]), name);
  return body;
};

const readsDone = autocannon({
  url: job.base, connections: 20, duration: job.seconds, headers,
  requests: [{ path: '/iot/v1/lockDevice/list?current=1&size=20' }, { path: '/iot/v1/logHeartbeat/list?current=1&size=20' }, { path: '/oauth/userInfo' }],
});
let heavy: Heavy[] = [];
if (job.heavy) {
  const image = new Uint8Array(4 * 1024 * 1024).map((_, i) => (i * 2654435761) >>> 24);
  const runs = await Promise.all([
    !job.kinds.includes('import') ? [] : loop(async (i) => {
      const file = new Uint8Array(await xlsxOf(importRows(10_000, (job.round * 50 + i) * 10_000)));
      return timed('import 10,000 rows', () => fetch(`${job.base}/iot/v1/lockDevice/import`, { method: 'POST', headers, body: form({}, 'locks.xlsx', file) }));
    }),
    !job.kinds.includes('export') ? [] : loop((i) => timed(`export 100,000 rows (${i % 2 ? 'xlsx' : 'csv'})`, () => fetch(`${job.base}/iot/v1/logHeartbeat/export?format=${i % 2 ? 'xlsx' : 'csv'}&timeZone=Asia%2FShanghai`, { headers }))),
    !job.kinds.includes('firmware') ? [] : loop((i) => {
      const version = `9.${job.round}.${i}`;
      const signed = new Uint8Array(signDemoFirmware(image, 'ZG-NB100', version));
      return timed('firmware upload 4 MiB', () => fetch(`${job.base}/iot/v1/firmware/upload`, {
        method: 'POST', headers, body: form({ model: 'ZG-NB100', version, notesZh: '压测', notesEn: 'bench' }, 'fw.zgfw', signed),
      }));
    }),
  ]);
  heavy = runs.flat();
}
const result = await readsDone;
process.send?.({
  reads: { requests: result.requests.total, rps: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts },
  heavy,
}, () => process.exit(0));
