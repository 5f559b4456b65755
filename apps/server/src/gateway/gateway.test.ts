import { protocol } from '@iot/contract';
import { type SimulatedDevice, seededRandom, startFleet } from '@iot/simulator';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { heartbeats, locks } from '../db/schema.js';
import { hashDeviceSecret } from '../crypto/device-secret.js';
import { type Gateway, startGateway } from './index.js';
import { silentLog } from './log.js';
import { issueSimulatorCredentials } from '../modules/lockDevice/credentials.js';
import * as fx from './test-support.js';
import { LOCK_A, LOCK_B, LOCK_DISABLED, SECRET_A, SECRET_B, SIM } from './test-support.js';

let database: Database;
let gateway: Gateway;
let url: string;
let mq: ReturnType<typeof fx.mqttClients>;

beforeAll(async () => {
  database = await fx.openSeededDatabase();
  gateway = await startGateway({ database, config: { MQTT_PORT: 0, HOST: '127.0.0.1', MQTT_URL: undefined }, log: silentLog });
  url = `mqtt://127.0.0.1:${gateway.port}`;
  mq = fx.mqttClients(url);
});
afterEach(() => mq.endAll());
afterAll(async () => {
  await gateway?.close();
  await database?.close();
});

const options = fx.deviceOptions;
const connect = (opts: Parameters<typeof mq.connect>[0]) => mq.connect(opts);
const refusedCode = (opts: Parameters<typeof mq.connect>[0]) => mq.refusedCode(opts);
let nextSeq = 1;
const heartbeat = (seq = nextSeq++, battery = 80) => fx.heartbeatPayload(seq, battery);
const lockRow = (imei: string) => fx.lockRow(database, imei);
const heartbeatCount = (imei: string, seq?: number) => fx.heartbeatCount(database, imei, seq);

describe('device authentication', () => {
  it('accepts the right credentials', async () => {
    const client = await connect(options(LOCK_A, SECRET_A));
    expect(client.connected).toBe(true);
  });

  it('refuses a wrong secret, an unknown IMEI, anonymous clients, a foreign client id and disabled locks', async () => {
    expect(await refusedCode(options(LOCK_A, SECRET_B))).toBe(4);
    expect(await refusedCode(options('869999999999999', SECRET_A))).toBe(4);
    expect(await refusedCode({ protocolVersion: 4, clientId: LOCK_A, reconnectPeriod: 0 })).toBe(5);
    expect(await refusedCode(options(LOCK_A, SECRET_A, { clientId: LOCK_B }))).toBe(2);
    expect(await refusedCode(options(LOCK_A, SECRET_A, { clientId: `${LOCK_A}/#` }))).toBe(2);
    expect(await refusedCode(options(LOCK_DISABLED, fx.SECRET_DISABLED))).toBe(5);
    expect(gateway.stats().broker.refusedConnect).toBeGreaterThanOrEqual(6);
  });
});

describe('topic rules', () => {
  it('refuses subscriptions to # and to another lock, grants its own downlink', async () => {
    const client = await connect(options(LOCK_A, SECRET_A));
    // mqtt.js turns a SUBACK failure code (0x80) into a rejection carrying the SUBACK packet.
    const refused = await client
      .subscribeAsync(['#', protocol.downlinkTopic(LOCK_B), protocol.uplinkTopic(LOCK_A)], { qos: 1 })
      .then(() => undefined, (error: { packet?: { granted?: number[] } }) => error.packet?.granted);
    expect(refused).toEqual([128, 128, 128]);
    const own = await client.subscribeAsync(protocol.downlinkTopic(LOCK_A), { qos: 1 });
    expect(own.map((g) => g.qos)).toEqual([1]);
    expect(client.connected).toBe(true);
  });

  it('disconnects a lock publishing to another lock\'s topic and stores nothing', async () => {
    const client = await connect(options(LOCK_A, SECRET_A));
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(protocol.uplinkTopic(LOCK_B), heartbeat(), { qos: 1 });
    await closed;
    expect(await heartbeatCount(LOCK_B)).toBe(0);
    expect(gateway.stats().broker.refusedPublish).toBeGreaterThanOrEqual(1);
  });
});

describe('uplink ingest', () => {
  it('has committed a QoS 1 heartbeat when the PUBACK arrives, and updated the lock', async () => {
    const client = await connect(options(LOCK_A, SECRET_A));
    const seq = nextSeq++;
    await client.publishAsync(protocol.uplinkTopic(LOCK_A), heartbeat(seq, 77), { qos: 1 });
    expect(await heartbeatCount(LOCK_A, seq)).toBe(1);
    const row = await lockRow(LOCK_A);
    expect(row).toMatchObject({ battery: 77, rssi: -85, snr: 12.5, firmwareVersion: '1.2.3', heartbeatIntervalS: 60, lastSeq: seq });
    expect(row.lastHeartbeatAt).toBeInstanceOf(Date);
    const [stored] = await database.system.select().from(heartbeats).where(eq(heartbeats.seq, seq));
    expect(stored).toMatchObject({ tenantId: 100, battery: 77, rssi: -85, snr: 12.5 });
  });

  it('stores the same seq once and does not roll readings back on a late redelivery', async () => {
    const client = await connect(options(LOCK_A, SECRET_A));
    const seq = nextSeq++;
    const before = gateway.stats().ingest.duplicates;
    await client.publishAsync(protocol.uplinkTopic(LOCK_A), heartbeat(seq, 70), { qos: 1 });
    await client.publishAsync(protocol.uplinkTopic(LOCK_A), heartbeat(seq, 71), { qos: 1 });
    expect(await heartbeatCount(LOCK_A, seq)).toBe(1);
    expect(gateway.stats().ingest.duplicates).toBe(before + 1);
    await client.publishAsync(protocol.uplinkTopic(LOCK_A), heartbeat(seq - 5, 10), { qos: 1 });
    // The first message of a (lock, seq) wins, in the log and in the lock's readings alike: the second
    // one (battery 71) was not stored, so it moves nothing; the late seq - 5 does not roll back either.
    expect(await lockRow(LOCK_A)).toMatchObject({ battery: 70, lastSeq: seq });
  });

  it('stores many concurrent uplinks of several locks (group commit)', async () => {
    const a = await connect(options(LOCK_A, SECRET_A));
    const b = await connect(options(LOCK_B, SECRET_B));
    const first = nextSeq;
    nextSeq += 200;
    await Promise.all(Array.from({ length: 200 }, (_, i) => [
      a.publishAsync(protocol.uplinkTopic(LOCK_A), heartbeat(first + i), { qos: 1 }),
      b.publishAsync(protocol.uplinkTopic(LOCK_B), heartbeat(first + i), { qos: 1 }),
    ]).flat());
    expect(await heartbeatCount(LOCK_B)).toBe(200);
    expect((await lockRow(LOCK_B)).lastSeq).toBe(first + 199);
    expect(gateway.stats().ingest.queue.batches).toBeLessThan(200);
  });

  it('acknowledges, drops and counts malformed and oversized payloads; the connection keeps working', async () => {
    const client = await connect(options(LOCK_A, SECRET_A));
    const topic = protocol.uplinkTopic(LOCK_A);
    const before = gateway.stats().ingest;
    const countBefore = await heartbeatCount(LOCK_A);
    await client.publishAsync(topic, 'not json', { qos: 1 });
    await client.publishAsync(topic, JSON.stringify({ msgId: 'x', seq: 1, type: 'heartbeat', ts: 1, data: { battery: 500 } }), { qos: 1 });
    await client.publishAsync(topic, JSON.stringify({ msgId: 'x', seq: 2 ** 40, type: 'heartbeat', ts: 1, data: JSON.parse(heartbeat()).data }), { qos: 1 });
    await client.publishAsync(topic, 'x'.repeat(protocol.MAX_PAYLOAD_BYTES + 1), { qos: 1 });
    const after = gateway.stats().ingest;
    expect(after.droppedMalformed - before.droppedMalformed).toBe(3);
    expect(after.droppedOversized - before.droppedOversized).toBe(1);
    expect(await heartbeatCount(LOCK_A)).toBe(countBefore);
    expect(client.connected).toBe(true);
    const seq = nextSeq++;
    await client.publishAsync(topic, heartbeat(seq), { qos: 1 });
    expect(await heartbeatCount(LOCK_A, seq)).toBe(1);
  });
});

describe('simulator credentials and fleet', () => {
  let devices: SimulatedDevice[];

  it('issues fresh secrets to enabled simulated locks only, storing their hashes', async () => {
    devices = await issueSimulatorCredentials(database);
    expect(devices.map((d) => d.imei)).toEqual(SIM);
    expect(devices[1]).toMatchObject({ tenantId: 101, model: 'ZG-N1', firmwareVersion: '1.0.0', heartbeatIntervalS: 300, lastSeq: 41, battery: 15 });
    expect(devices[0]).toMatchObject({ lastSeq: null, battery: null });
    for (const device of devices) {
      expect(device.secret).toMatch(/^[0-9a-f]{32}$/);
      expect(await fx.secretHashOf(database, device.imei)).toBe(hashDeviceSecret(device.secret));
    }
  });

  it('runs a fleet whose locks all report within a few seconds, then stops cleanly', async () => {
    const fleet = await startFleet({ brokerUrl: url, devices, heartbeatS: 1, random: seededRandom(7) });
    try {
      await expect.poll(async () => {
        const rows = await database.system.select().from(locks).where(sql`${locks.imei} in ${SIM}`);
        return rows.filter((row) => row.lastHeartbeatAt !== null).length;
      }, { timeout: 8000, interval: 100 }).toBe(3);
      for (const imei of SIM) expect(await heartbeatCount(imei)).toBeGreaterThan(0);
      const [{ first }] = fx.rows<{ first: number }>(await database.system.execute(sql`
        select min(h.seq)::int as first from heartbeats h join locks l on l.id = h.lock_id where l.imei = ${SIM[1]}`)) as [{ first: number }];
      expect(first).toBe(42); // continues from lastSeq + 1
      expect((await lockRow(SIM[1])).heartbeatIntervalS).toBe(1);
    } finally {
      await fleet.stop();
    }
    expect(fleet.devices.every((device) => !device.connected)).toBe(true);
    expect(fleet.devices.every((device) => device.acked > 0)).toBe(true);
  });

  it('continues seq after a restart and brings a lock back after a simulated outage', async () => {
    const [device] = await issueSimulatorCredentials(database); // re-reads last_seq: a fresh "boot"
    if (!device) throw new Error('no simulated lock');
    const before = (await fx.lockRow(database, device.imei)).lastSeq ?? 0;
    expect(device.lastSeq).toBe(before);
    const fleet = await startFleet({
      brokerUrl: url, devices: [device], heartbeatS: 1, random: seededRandom(3), firstHeartbeatWithinMs: 100,
      behaviour: { flakyRatio: 1, offlineProbability: 1, offlineIntervals: [1, 1] }, // offline for 1 s after every heartbeat
    });
    try {
      await expect.poll(() => fleet.devices[0]?.offline, { timeout: 3000, interval: 20 }).toBe(true);
      await expect.poll(async () => (await fx.lockRow(database, device.imei)).lastSeq, { timeout: 6000, interval: 100 }).toBe(before + 2);
    } finally {
      await fleet.stop();
    }
    const duplicates = gateway.stats().ingest.duplicates;
    expect(await heartbeatCount(device.imei, before + 1)).toBe(1);
    expect(gateway.stats().ingest.duplicates).toBe(duplicates);
  });
});
