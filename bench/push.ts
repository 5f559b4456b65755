/**
 * Open-platform benchmark, on PGlite (the embedded default):
 *   1. deliveries/s: 1,000 pushes queued over 50 locks, drained by the delivery worker (claim with
 *      SKIP LOCKED, sign, POST, record) to a local receiver answering 200 at once; baseline in the same
 *      run: 1,000 bare POSTs of the same bodies to the same receiver, 50 at a time (the HTTP ceiling);
 *   2. the added latency of an unlock's ingest (storeUplinks of one openRecord, the gateway's commit)
 *      with 3 subscriptions to unlocks vs none, BENCH_PUSH_UNLOCKS (default 400) each, interleaved in
 *      rounds; plus a 500-unlock batch both ways (the group commit under load).
 * No budget is asserted: figures and ratios for bench/RESULTS.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { protocol } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { provisionLocks, rows } from '../apps/server/integration/devices.js';
import { createSecretBox } from '../apps/server/src/crypto/secret-box.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { storeUplinks, type UplinkRecord } from '../apps/server/src/gateway/uplink-store.js';
import { rotateKey } from '../apps/server/src/modules/subscription/keys.js';
import { enqueuePushEvents } from '../apps/server/src/modules/subscription/outbox.js';
import { saveCustomerCode, writeConfig } from '../apps/server/src/modules/subscription/customerCodes.js';
import { startDeliveryWorker } from '../apps/server/src/modules/subscription/worker.js';

const QUEUED = 1000;
const LOCKS = 50;
const UNLOCKS = Number(process.env.BENCH_PUSH_UNLOCKS ?? 400);
const ROUNDS = 4;

const receiver = createServer((request, response) => { request.resume(); request.on('end', () => response.end('ok')); });
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
const dir = mkdtempSync(join(tmpdir(), 'iot-bench-push-'));
const database = await openDatabase({ dataDir: dir });
const box = createSecretBox(randomBytes(32));
try {
  await provisionLocks(database, LOCKS);
  const locks = rows<{ id: number; imei: string }>(await database.system.execute(sql`select id, imei from locks where tenant_id = 100 order by id`));
  const codes: number[] = [];
  await database.withTenant(100, async (tx) => {
    for (const n of [1, 2, 3]) {
      const code = await saveCustomerCode(tx, 100, { customerCode: `BENCH-${n}`, name: `bench ${n}`, contact: '', enabled: true });
      await rotateKey(tx, 100, code.id, 0, box);
      await writeConfig(tx, 100, code.id, { url: target, eventTypes: ['unlock'], buildings: [], enabled: n === 1 });
      codes.push(code.id);
    }
  });

  // 1. Deliveries per second.
  const events = Array.from({ length: QUEUED }, (_, i) => ({ tenantId: 100, lockId: Number(locks[i % locks.length]?.id), type: 'unlock' as const, occurredAt: Date.now(), data: { n: i } }));
  await enqueuePushEvents(database.system, events);
  const worker = startDeliveryWorker({ database, box, policy: { allowed: ['loopback'] }, log: { warn: console.warn, info: () => {} }, pollMs: 60_000 });
  let started = performance.now();
  await worker.drain();
  const workerRate = (QUEUED / (performance.now() - started)) * 1000;
  await worker.close();
  const [done] = rows<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from push_deliveries where state = 'delivered'`));
  const body = JSON.stringify({ eventId: 'x', eventType: 'unlock', data: { n: 1 } });
  started = performance.now();
  for (let i = 0; i < QUEUED; i += LOCKS) {
    await Promise.all(Array.from({ length: LOCKS }, () => fetch(target, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then((r) => r.text())));
  }
  const rawRate = (QUEUED / (performance.now() - started)) * 1000;
  console.log(`deliveries: ${QUEUED} queued over ${LOCKS} locks -> ${done?.n} delivered, ${workerRate.toFixed(0)}/s; bare POSTs 50 at a time ${rawRate.toFixed(0)}/s; ratio ${(workerRate / rawRate).toFixed(2)}x`);

  // 2. Unlock ingest latency, 3 subscriptions vs none.
  let seq = 1_000_000;
  const unlock = (i: number): UplinkRecord => {
    const lock = locks[i % locks.length] as { id: number; imei: string };
    seq += 1;
    return { lockId: Number(lock.id), tenantId: 100, imei: lock.imei, message: { msgId: `b-${seq}`, seq, type: 'openRecord', ts: Date.now(), data: { method: 'card', success: true, lockTime: Date.now() } } as protocol.UplinkMessage };
  };
  const setSubscriptions = (on: boolean) => database.system.execute(sql`update push_configs set enabled = ${on}`);
  const sample: Record<'none' | 'three', number[]> = { none: [], three: [] };
  const batch: Record<'none' | 'three', number[]> = { none: [], three: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['none', 'three'] as const) {
      await setSubscriptions(mode === 'three');
      for (let i = 0; i < UNLOCKS / ROUNDS; i++) {
        const t0 = performance.now();
        await storeUplinks(database, [unlock(i)]);
        sample[mode].push(performance.now() - t0);
      }
      const records = Array.from({ length: 500 }, (_, i) => unlock(i));
      const t0 = performance.now();
      await storeUplinks(database, records);
      batch[mode].push(performance.now() - t0);
    }
  }
  const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] as number;
  for (const mode of ['none', 'three'] as const) {
    console.log(`unlock ingest, ${mode === 'none' ? 'no subscription ' : '3 subscriptions'}: one unlock per commit median ${pct(sample[mode], 0.5).toFixed(2)} ms p95 ${pct(sample[mode], 0.95).toFixed(2)} ms; 500-unlock batch median ${pct(batch[mode], 0.5).toFixed(1)} ms`);
  }
  const [queued] = rows<{ n: number }>(await database.system.execute(sql`select count(*)::int as n from push_deliveries where state = 'pending'`));
  console.log(`added by 3 subscriptions: median +${(pct(sample.three, 0.5) - pct(sample.none, 0.5)).toFixed(2)} ms per single-unlock commit (${(pct(sample.three, 0.5) / pct(sample.none, 0.5)).toFixed(2)}x), 500-unlock batch ${(pct(batch.three, 0.5) / pct(batch.none, 0.5)).toFixed(2)}x; ${queued?.n} deliveries queued by the 3-subscription runs`);
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
  receiver.close();
}
