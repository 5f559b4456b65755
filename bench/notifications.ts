/**
 * Notification benchmark, on PGlite (the embedded default): 1,000 alarms in
 * 10 s across 200 locks (a batch of 10 alarm uplinks every 100 ms through the gateway's store, the
 * real ingest path that raises `lock.alarm` after its commit), three kinds per lock (tamper,
 * forcedOpen, duress) so 600 (lock, kind) pairs each become one notification and the other 400 alarms
 * are counted into them by storm control; one rule sends to two webhook channels (the open platform's
 * signed format) at a local receiver answering 200 at once.
 * Figures: latency from the commit of a pair's first alarm to its arrival at the receiver (p50/p95/p99,
 * budget p99 <= 2 s), deliveries sent / suppressed / lost, and two baselines measured in the same run:
 * the same 1,200 bodies as bare POSTs 50 at a time (the HTTP ceiling), and the batches' ingest time
 * with no rule vs with the rule (what producing notifications adds to the device path).
 * No budget is asserted: figures for bench/RESULTS.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOG_LABELS, notificationChannelCreateBody, notificationRuleBody, type protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { provisionLocks, rows } from '../apps/server/integration/devices.js';
import { createSecretBox } from '../apps/server/src/crypto/secret-box.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { storeUplinks, type UplinkRecord } from '../apps/server/src/gateway/uplink-store.js';
import { createChannel } from '../apps/server/src/modules/notification/channels.js';
import { saveRule } from '../apps/server/src/modules/notification/rules.js';
import { startNotificationWorker } from '../apps/server/src/modules/notification/worker.js';

const LOCKS = 200;
const ALARMS = 1000;
const BATCHES = 100;
const KINDS = ['tamper', 'forcedOpen', 'duress'] as const;
const policy = { allowed: ['loopback'] } as const;

const kindOfTitle = new Map(KINDS.map((kind) => [(LOG_LABELS.kinds as Record<string, { 'en-US': string }>)[kind]?.['en-US'] ?? kind, kind]));
/** Arrivals at the receiver by `imei:kind`, ms (performance.now()). */
const arrivals = new Map<string, number[]>();
const bodies: string[] = [];
let recording = true;
const receiver = createServer((request, response) => {
  let text = '';
  request.on('data', (chunk: Buffer) => { text += chunk.toString(); });
  request.on('end', () => {
    const at = performance.now();
    response.end('ok');
    const body = JSON.parse(text) as { data?: { title?: string; link?: string } };
    const imei = decodeURIComponent(body.data?.link?.split('imei=')[1] ?? '');
    const title = body.data?.title ?? '';
    const kind = [...kindOfTitle].find(([label]) => title.endsWith(label))?.[1];
    if (!kind) return;
    if (!recording) return;
    bodies.push(text);
    const key = `${imei}:${kind}`;
    arrivals.set(key, [...(arrivals.get(key) ?? []), at]);
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const dir = mkdtempSync(join(tmpdir(), 'iot-bench-notifications-'));
const database = await openDatabase({ dataDir: dir });
const box = createSecretBox(randomBytes(32));
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;
try {
  await provisionLocks(database, LOCKS);
  const locks = rows<{ id: number; imei: string; tenant_id: number }>(await database.system.execute(sql`select id, imei, tenant_id from locks order by id limit ${LOCKS}`));
  const tenants = [...new Set(locks.map((lock) => Number(lock.tenant_id)))];
  let seq = 2_000_000;
  const alarm = (i: number, kind: protocol.AlarmKind, cleared = false): UplinkRecord => {
    const lock = locks[i % locks.length] as { id: number; imei: string; tenant_id: number };
    seq += 1;
    return { lockId: Number(lock.id), tenantId: Number(lock.tenant_id), imei: lock.imei, message: { msgId: `n-${seq}`, seq, type: 'alarm', ts: Date.now(), data: { kind, cleared } } as protocol.UplinkMessage };
  };
  /** 1,000 alarms, lock i % 200 and kind (i / 200) % 3, in BATCHES batches 100 ms apart; returns the batches' ingest ms and each pair's first commit. */
  async function drive(): Promise<{ ingestMs: number[]; firstCommit: Map<string, number>; wallStart: number; lastCommitMs: number }> {
    const ingestMs: number[] = [];
    const firstCommit = new Map<string, number>();
    const perBatch = ALARMS / BATCHES;
    const start = performance.now();
    const wallStart = Date.now();
    for (let b = 0; b < BATCHES; b++) {
      const wait = start + b * 100 - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const batch = Array.from({ length: perBatch }, (_, j) => b * perBatch + j).map((i) => alarm(i, KINDS[Math.floor(i / LOCKS) % KINDS.length] as protocol.AlarmKind));
      const t0 = performance.now();
      await storeUplinks(database, batch);
      const committed = performance.now();
      ingestMs.push(committed - t0);
      for (const record of batch) {
        const key = `${record.imei}:${(record.message.data as { kind: string }).kind}`;
        if (!firstCommit.has(key)) firstCommit.set(key, committed);
      }
    }
    return { ingestMs, firstCommit, wallStart, lastCommitMs: performance.now() - start };
  }
  const clearAll = () => storeUplinks(database, locks.flatMap((_, i) => KINDS.map((kind) => alarm(i, kind, true))));

  // Baseline: the same alarms with no rule (the device path alone).
  const baseline = await drive();
  await clearAll();

  const CHANNELS = 2;
  for (const tenantId of tenants) {
    await database.withTenant(tenantId, async (tx) => {
      const channelIds: number[] = [];
      for (let n = 1; n <= CHANNELS; n++) {
        const body = notificationChannelCreateBody.parse({ kind: 'webhook', name: `bench ${n}`, url: target, secret: `bench-secret-${n}`, language: 'en-US' });
        channelIds.push((await createChannel(tx, tenantId, body, box, policy)).id);
      }
      await saveRule(tx, tenantId, notificationRuleBody.parse({ name: 'bench', kinds: [...KINDS], minSeverity: 'critical', channelIds }));
    });
  }
  const worker = startNotificationWorker({ database, box, policy, log: { warn: console.warn, info: () => {} } });
  const run = await drive();
  const deadline = performance.now() + 60_000;
  while (bodies.length < run.firstCommit.size * CHANNELS && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const lastArrival = performance.now();
  await worker.drain();
  await worker.close();

  const latencies = [...run.firstCommit].flatMap(([key, at]) => (arrivals.get(key) ?? []).map((arrival) => arrival - at));
  const missing = [...run.firstCommit.keys()].filter((key) => (arrivals.get(key)?.length ?? 0) < CHANNELS).length;
  const states = rows<{ state: string; n: number }>(await database.system.execute(sql`select state, count(*)::int as n from notification_deliveries group by state order by state`));
  const [counted] = rows<{ notifications: number; alarms: number }>(await database.system.execute(sql`select count(*)::int as notifications, coalesce(sum(count), 0)::int as alarms from notifications`));
  const firstAt = Math.min(...run.firstCommit.values());
  console.log(`alarms: ${ALARMS} over ${locks.length} locks of ${tenants.length} data centres in ${BATCHES} batches 100 ms apart; ${run.firstCommit.size} (lock, kind) pairs -> ${counted?.notifications} notifications counting ${counted?.alarms} alarms`);
  console.log(`deliveries: ${states.map((s) => `${s.state} ${s.n}`).join(', ')}; arrived ${latencies.length} of ${run.firstCommit.size * CHANNELS}, pairs missing an arrival ${missing}`);
  console.log(`event -> receiver: p50 ${pct(latencies, 0.5).toFixed(0)} ms, p95 ${pct(latencies, 0.95).toFixed(0)} ms, p99 ${pct(latencies, 0.99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms (budget p99 <= 2000 ms: ${(pct(latencies, 0.99) / 2000).toFixed(2)}x); all in ${((lastArrival - firstAt) / 1000).toFixed(1)} s`);
  recording = false;
  const [stages] = rows<{ produced_ms: number; sent_ms: number }>(await database.system.execute(sql`
    select percentile_cont(0.5) within group (order by extract(epoch from n.first_at) * 1000 - ${run.wallStart}) as produced_ms,
      percentile_cont(0.5) within group (order by extract(epoch from d.sent_at) * 1000 - ${run.wallStart}) as sent_ms
    from notifications n join notification_deliveries d on d.notification_id = n.id and d.state = 'sent'`));
  console.log(`median after the first batch (wall clock): notification produced ${Number(stages?.produced_ms).toFixed(0)} ms, delivery recorded sent ${Number(stages?.sent_ms).toFixed(0)} ms; last batch committed ${run.lastCommitMs.toFixed(0)} ms`);
  const started = performance.now();
  for (let i = 0; i < bodies.length; i += 50) {
    await Promise.all(bodies.slice(i, i + 50).map((body) => fetch(target, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then((r) => r.text())));
  }
  const bareRate = (bodies.length / (performance.now() - started)) * 1000;
  const deliveredRate = (latencies.length / (lastArrival - firstAt)) * 1000;
  console.log(`delivery rate ${deliveredRate.toFixed(0)}/s (paced by the 10 s of alarms) vs bare POSTs 50 at a time ${bareRate.toFixed(0)}/s`);
  console.log(`ingest of a ${ALARMS / BATCHES}-alarm batch: no rule median ${pct(baseline.ingestMs, 0.5).toFixed(1)} ms, with the rule and its worker ${pct(run.ingestMs, 0.5).toFixed(1)} ms (${(pct(run.ingestMs, 0.5) / pct(baseline.ingestMs, 0.5)).toFixed(2)}x)`);
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
  receiver.close();
}
