/**
 * Two server instances never send the same chunk stream twice to one lock. Two gateways
 * run on one database (PGlite, and PostgreSQL with real concurrency), each with its own embedded broker
 * and OTA transfer; every simulated lock (@iot/simulator SimulatedLock, whose OTA logic drives the
 * download) is connected to both and publishes each uplink to both, the worst a broker redelivering to
 * another instance can do. Both instances commit every chunk request (one stores it, the other sees a
 * duplicate) and both try to answer it; the conditional claim on served_seq (modules/firmware/transfer.ts)
 * lets one of them. Each lock must receive at most one otaChunk per request it made, and still finish;
 * likewise both instances review each heartbeat, and only one notice may come of it.
 */
import { protocol } from '@iot/contract';
import { SimulatedLock } from '@iot/simulator';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firmwareJobs } from '../src/db/schema.js';
import { type Gateway, startGateway } from '../src/gateway/index.js';
import type { IngestStats } from '../src/gateway/ingest.js';
import { silentLog } from '../src/gateway/log.js';
import type { OtaStats } from '../src/gateway/ota.js';
import { act, addRollout, type FirmwareEnv, image, startFirmwareEnv, upload } from './firmware-support.js';
import { dataOf, skipSuite } from './helper.js';
import { waitFor } from './outbox-support.js';

/** 10 chunks of 2,048 bytes, the last one short. */
const SIZE = 10 * protocol.OTA_CHUNK_BYTES - 500;
const LOCKS = 3;

/** One lock connected to both brokers: every uplink goes to both, downlinks from either are counted and handled. */
class TwinHomedLock {
  readonly clients: MqttClient[];
  /** Requests made per offset (bytes), otaChunks received per offset, otaNotify received. */
  readonly requested = new Map<number, number>();
  readonly chunks = new Map<number, number>();
  notices = 0;
  private started = false;
  private readonly timer: NodeJS.Timeout;

  constructor(readonly lock: SimulatedLock, secret: string, ports: number[]) {
    this.clients = ports.map((port) => {
      const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
        protocolVersion: 4, clientId: lock.imei, username: lock.imei, password: secret, clean: false, reconnectPeriod: 500,
      });
      client.on('connect', () => client.subscribe(protocol.downlinkTopic(lock.imei), { qos: 1 }, () => {
        if (!this.started && this.clients.every((c) => c.connected)) {
          this.started = true;
          this.heartbeat();
        }
      }));
      client.on('message', (_topic, payload) => this.downlink(payload));
      client.on('error', () => {});
      return client;
    });
    // 15 s apart: a notice is answered by a chunk request long before the next heartbeat could
    // legitimately bring another notice (a NOTIFIED lock that beats again is notified again), so every
    // notice beyond the first would be a duplicate. 5 s was not enough on a loaded CI machine.
    this.timer = setInterval(() => this.heartbeat(), 15_000);
  }

  private publish(message: object): void {
    const text = JSON.stringify(message);
    for (const client of this.clients) client.publish(protocol.uplinkTopic(this.lock.imei), text, { qos: 1 });
  }

  private heartbeat(): void {
    if (this.clients.every((client) => client.connected)) this.publish(this.lock.nextHeartbeat());
  }

  private downlink(payload: Buffer): void {
    const message = JSON.parse(payload.toString()) as { type: string; data: { offset?: number } };
    if (message.type === 'otaNotify') this.notices++;
    if (message.type === 'otaChunk') this.chunks.set(message.data.offset as number, (this.chunks.get(message.data.offset as number) ?? 0) + 1);
    for (const action of this.lock.otaDownlink(payload) ?? []) {
      if (action.kind === 'request') {
        this.requested.set(action.data.offset, (this.requested.get(action.data.offset) ?? 0) + 1);
        this.publish(this.lock.nextUplink({ type: 'otaChunkRequest', data: action.data } as never));
      } else if (action.kind === 'status') {
        this.publish(this.lock.nextUplink({ type: 'otaStatus', data: action.data } as never));
      } else if (action.kind === 'reboot') {
        this.lock.rebooted(); // flashed at once: the heartbeat after the reboot reports the new version
        this.heartbeat();
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.clients.map((client) => client.endAsync(true)));
  }
}

describe.skipIf(skipSuite)('firmware transfer with two gateways on one database', () => {
  let env: FirmwareEnv;
  let second: Gateway;
  const locks: TwinHomedLock[] = [];
  beforeAll(async () => {
    env = await startFirmwareEnv({ simLocks: 15 });
    second = await startGateway({
      database: env.ctx.database, log: silentLog,
      config: { MQTT_PORT: 0, HOST: '127.0.0.1', MQTT_URL: undefined, DATA_DIR: env.dataDir, COMMAND_SWEEP_MS: 100 },
    });
  });
  afterAll(async () => {
    await Promise.all(locks.map((lock) => lock.close()));
    await second?.close().catch(() => {});
    await env?.close();
  });

  it('answers every chunk request once though both instances commit it, and every lock is updated', async () => {
    const packageId = dataOf(await upload(env, 'ZG-NB100', '3.0.0', image(SIZE, 7))).id;
    const devices = env.devices.filter((d) => d.model === 'ZG-NB100').slice(0, LOCKS);
    const id = await addRollout(env, { packageId, target: { kind: 'imeis', imeis: devices.map((d) => d.imei) }, minBattery: 0, minRssi: -150 });
    expect((await act(env, 'start', id)).statusCode).toBe(200);
    const gateways = [env.gateway as Gateway, second];
    for (const device of devices) {
      const lock = new SimulatedLock(device, { intervalS: 5, behaviour: { flakyRatio: 0, drainProbability: 0 } });
      locks.push(new TwinHomedLock(lock, device.secret, gateways.map((g) => g.port)));
    }
    const jobs = () => env.ctx.database.system.select().from(firmwareJobs).where(eq(firmwareJobs.rolloutId, id));
    await waitFor(jobs, (rows) => rows.length === LOCKS && rows.every((job) => job.state === 'UPDATED'), 45_000);

    const stats = gateways.map((g) => g.ota.stats()) as [OtaStats, OtaStats];
    const ingest = gateways.map((g) => g.stats().ingest) as [IngestStats, IngestStats];
    console.info(`[two gateways] chunks sent ${stats.map((s) => s.chunks).join(' + ')}, notices ${stats.map((s) => s.notices).join(' + ')},` +
      ` uplinks committed ${ingest.map((s) => s.committed).join(' / ')} (duplicates ${ingest.map((s) => s.duplicates).join(' / ')})`);
    let requests = 0;
    let received = 0;
    for (const twin of locks) {
      expect(twin.lock.firmwareVersion).toBe('3.0.0');
      expect(twin.notices, `${twin.lock.imei}: otaNotify received`).toBe(1); // both instances reviewed its heartbeat
      // Every offset of the package was fetched, each answered at most once per request made for it.
      expect([...twin.chunks.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i * protocol.OTA_CHUNK_BYTES));
      for (const [offset, count] of twin.chunks) expect(count, `${twin.lock.imei} offset ${offset}`).toBeLessThanOrEqual(twin.requested.get(offset) ?? 0);
      requests += [...twin.requested.values()].reduce((a, b) => a + b, 0);
      received += [...twin.chunks.values()].reduce((a, b) => a + b, 0);
    }
    expect(received).toBe(stats[0].chunks + stats[1].chunks); // what both instances sent is what the locks got
    expect(received).toBeLessThanOrEqual(requests);
    // Each instance committed every uplink (one as new, the other as a duplicate): both had the chance to answer.
    for (const s of ingest) expect(s.committed).toBeGreaterThanOrEqual(requests);
    expect(ingest[0].duplicates + ingest[1].duplicates).toBeGreaterThanOrEqual(requests);
  }, 60_000);
});
