/**
 * Fixtures of the command outbox tests: a seeded test app plus the real gateway (embedded broker on a
 * free port, dispatcher with short test timings), simulator credentials, raw MQTT "locks", and polling
 * helpers. Times are ms.
 */
import { protocol } from '@iot/contract';
import type { SimulatedDevice } from '@iot/simulator';
import { eq, inArray, sql } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { lazySecretBox } from '../src/crypto/secret-box.js';
import { commands, locks } from '../src/db/schema.js';
import { type Gateway, startGateway } from '../src/gateway/index.js';
import { silentLog } from '../src/gateway/log.js';
import type { DispatcherTuning } from '../src/gateway/outbox/dispatcher.js';
import { issueSimulatorCredentials } from '../src/modules/lockDevice/credentials.js';
import { type EnqueueInput, enqueueCommand } from '../src/modules/command/outbox.js';
import { createTestContext, type TestContext } from './helper.js';

export const TEST_SECRET_KEY = '5a'.repeat(32);
/** Fast timings: response timeout 1 s, sweep every 100 ms. */
export const FAST_OUTBOX: DispatcherTuning = { responseTimeoutMs: 1000, sweepIntervalMs: 100 };

export interface OutboxEnv {
  ctx: TestContext;
  gateway: Gateway;
  url: string;
  /** Tenant-100 simulated locks with fresh secrets and their lock ids. */
  devices: (SimulatedDevice & { lockId: number })[];
  startGateway(port?: number): Promise<Gateway>;
  close(): Promise<void>;
}

/** App + gateway over a fresh database; `alwaysOnline`: indexes (into `devices`) of locks set always online first. */
export async function startOutboxEnv(options: { alwaysOnline?: number[]; outbox?: DispatcherTuning } = {}): Promise<OutboxEnv> {
  const ctx = await createTestContext({ SECRET_KEY: TEST_SECRET_KEY }, 10);
  const rows = await ctx.database.system.select({ id: locks.id, imei: locks.imei }).from(locks).where(eq(locks.tenantId, 100)).orderBy(locks.id);
  const online = (options.alwaysOnline ?? []).map((index) => rows[index]?.id as number);
  if (online.length) await ctx.database.system.update(locks).set({ alwaysOnline: true }).where(inArray(locks.id, online));
  const credentials = await issueSimulatorCredentials(ctx.database);
  const idOf = new Map(rows.map((row) => [row.imei, row.id]));
  const devices = credentials.filter((d) => d.tenantId === 100).map((d) => ({ ...d, lockId: idOf.get(d.imei) as number }));
  const start = (port = 0) => startGateway({
    database: ctx.database, log: silentLog, outbox: { ...FAST_OUTBOX, ...options.outbox },
    config: { MQTT_PORT: port, HOST: '127.0.0.1', MQTT_URL: undefined, SECRET_KEY: TEST_SECRET_KEY },
  });
  const env: OutboxEnv = {
    ctx, devices, gateway: await start(), url: '',
    async startGateway(port) {
      env.gateway = await start(port);
      return env.gateway;
    },
    async close() {
      await env.gateway.close().catch(() => {});
      await ctx.close();
    },
  };
  env.url = `mqtt://127.0.0.1:${env.gateway.port}`;
  return env;
}

/** Queues a command in tenant 100 as `test` (as the API does); its `command.queued` event wakes the dispatcher. */
export async function enqueue(env: OutboxEnv, input: Omit<EnqueueInput, 'tenantId' | 'createdBy'>) {
  const box = lazySecretBox({ SECRET_KEY: TEST_SECRET_KEY });
  return env.ctx.database.withTenant(100, (tx) => enqueueCommand(tx, { tenantId: 100, createdBy: 'test', ...input }, box));
}

/** The command row (owner connection). */
export async function commandRow(env: OutboxEnv, id: number) {
  const [row] = await env.ctx.database.system.select().from(commands).where(eq(commands.id, id));
  if (!row) throw new Error(`no command ${id}`);
  return row;
}

/** Polls `read` every 50 ms until `done` holds; throws with the last value after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until command `id` is in `state`; returns its row. */
export const waitForState = (env: OutboxEnv, id: number, state: protocol.CommandState, timeoutMs?: number) =>
  waitFor(() => commandRow(env, id), (row) => row.state === state, timeoutMs);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A hand-driven lock: a raw MQTT client (persistent session) recording its downlinks. */
export interface RawLock {
  client: MqttClient;
  received: protocol.DownlinkMessage[];
  /** Publishes a commandResult (QoS 1, next seq); resolves on PUBACK, i.e. once committed. */
  answer(commandMsgId: string, code?: number, extra?: { detail?: string; slot?: number }): Promise<void>;
}

let seqBase = 1_000_000;

/** Connects `device` as a raw lock subscribed to its downlink topic. */
export async function rawLock(url: string, device: SimulatedDevice): Promise<RawLock> {
  const client = await mqtt.connectAsync(url, {
    protocolVersion: 4, clientId: device.imei, username: device.imei, password: device.secret, clean: false, reconnectPeriod: 0,
  });
  const received: protocol.DownlinkMessage[] = [];
  client.on('message', (_topic, payload) => received.push(JSON.parse(payload.toString('utf8'))));
  await client.subscribeAsync(protocol.downlinkTopic(device.imei), { qos: 1 });
  seqBase += 1000;
  let seq = seqBase;
  return {
    client, received,
    async answer(commandMsgId, code = 0, extra = {}) {
      seq += 1;
      const message = { msgId: `raw-${seq}`, seq, type: 'commandResult', ts: Date.now(), data: { commandMsgId, code, ...extra } };
      await client.publishAsync(protocol.uplinkTopic(device.imei), JSON.stringify(message), { qos: 1 });
    },
  };
}

/** Sets a lock's last uplink `agoMs` ago (null: never). */
export async function setLastUplink(env: OutboxEnv, lockId: number, agoMs: number | null) {
  const value = agoMs === null ? null : sql`now() - make_interval(secs => ${agoMs / 1000})`;
  await env.ctx.database.system.update(locks).set({ lastUplinkAt: value }).where(eq(locks.id, lockId));
}
