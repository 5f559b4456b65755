/**
 * Open-platform durability: 1,000 undelivered pushes are queued, the real server starts
 * delivering them to a receiver and is SIGKILLed mid-stream, then restarted on the same data dir.
 * Every event must reach the receiver (verified signature), duplicates only as the same event id
 * (at least once), and every delivery ends `delivered`. A delivery in flight at the kill is retried
 * after its lease (timeout + 5 s). Bounded: ~40 s.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto/secret-box.js';
import { openDatabase } from '../src/db/client.js';
import { rotateKey } from '../src/modules/subscription/keys.js';
import { enqueuePushEvents, type PushEvent } from '../src/modules/subscription/outbox.js';
import { saveCustomerCode, writeConfig } from '../src/modules/subscription/customerCodes.js';
import { documentedCheck, startPushReceiver } from '../test/push-receiver.js';
import { provisionLocks, rows } from './devices.js';
import { attemptDirs } from './attempt-dirs.js';
import { freePort, type ServerProcess, startServer, waitUntil } from './server-process.js';

const EVENTS = 1000;
const LOCKS = 20;
const dataDirs = attemptDirs('iot-push-kill9-');
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  dataDirs.removeAll();
});

it('loses no queued push across a kill -9 of the server, and repeats only as the same event id', async () => {
  await server?.stop(); // a failed attempt's server
  server = undefined;
  const dataDir = dataDirs.next();
  const receiver = await startPushReceiver();
  const key = randomBytes(32);
  const database = await openDatabase({ dataDir });
  let secret = '';
  try {
    await provisionLocks(database, LOCKS);
    const lockIds = rows<{ id: number }>(await database.system.execute(sql`select id from locks where tenant_id = 100 order by id`)).map((r) => Number(r.id));
    await database.withTenant(100, async (tx) => {
      const code = await saveCustomerCode(tx, 100, { customerCode: 'KILL9-1', name: 'kill -9', contact: '', enabled: true });
      secret = (await rotateKey(tx, 100, code.id, 0, createSecretBox(key))).secret;
      await writeConfig(tx, 100, code.id, { url: receiver.url(), eventTypes: ['unlock'], buildings: [], enabled: true });
    });
    const events: PushEvent[] = Array.from({ length: EVENTS }, (_, i) => ({
      tenantId: 100, lockId: lockIds[i % lockIds.length] as number, type: 'unlock', occurredAt: Date.now(), data: { n: i },
    }));
    expect(await enqueuePushEvents(database.system, events)).toBe(EVENTS);
  } finally {
    await database.close();
  }

  const env = { DATA_DIR: dataDir, PORT: String(await freePort()), MQTT_PORT: String(await freePort()), SECRET_KEY: key.toString('hex'), PUSH_ALLOWED_NETWORKS: 'loopback', PUSH_POLL_MS: '50' };
  const delivered = () => new Set(receiver.accepted().map((p) => p.json.eventId)).size;
  try {
    server = await startServer(env);
    await waitUntil(() => delivered() >= 200, 30_000, '200 pushes delivered');
    await server.kill9();
    const atKill = delivered();
    server = await startServer(env);
    await waitUntil(() => delivered() >= EVENTS, 45_000, 'every push delivered after the restart');
    console.info(`[push-kill9] ${atKill} delivered before the kill, ${receiver.received.length} requests for ${EVENTS} events`);
    await new Promise((r) => setTimeout(r, 500)); // the last pass records its outcomes
    await server.stop();
    server = undefined;
  } finally {
    await receiver.close();
  }
  const pushes = receiver.accepted();
  expect(pushes.every((p) => documentedCheck(p.headers, p.body, secret))).toBe(true);
  const byEvent = new Map<string, Set<number>>();
  for (const push of pushes) byEvent.set(push.json.eventId, (byEvent.get(push.json.eventId) ?? new Set()).add((push.json.data as { n: number }).n));
  expect(byEvent.size).toBe(EVENTS);
  expect([...byEvent.values()].every((payloads) => payloads.size === 1)).toBe(true); // a repeat is the same event
  const check = await openDatabase({ dataDir });
  try {
    const states = rows<{ state: string; n: number }>(await check.system.execute(sql`select state, count(*)::int as n from push_deliveries group by state`));
    expect(states).toEqual([{ state: 'delivered', n: EVENTS }]);
  } finally {
    await check.close();
  }
}, 120_000);
