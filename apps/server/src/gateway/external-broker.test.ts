/**
 * External broker mode against a scripted MQTT 5 broker (mqtt-packet on a raw socket), so the test sees
 * exactly when the platform writes each PUBACK: only after ingest() resolved, in arrival order, while
 * later uplinks are already being stored (pipelined); none on a failed store, redelivery after reconnect.
 */
import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceLookups } from './auth.js';
import type { GatewaySession } from './device-kinds.js';
import { type ExternalBroker, SHARED_UPLINK_FILTER, startExternalBroker } from './external-broker.js';
import type { Ingest } from './ingest.js';
import { silentLog } from './log.js';

const IMEI = '860000000000001';
const opts = { protocolVersion: 5 } as const;

/** A one-client MQTT 5 broker that records what the platform sends. */
async function fakeBroker(connackCode = 0) {
  const received: Packet[] = [];
  let socket: Socket | undefined;
  let sessions = 0;
  const server: Server = createServer((s) => {
    socket = s;
    const parser = mqttPacket.parser(opts);
    parser.on('packet', (packet: Packet) => {
      received.push(packet);
      if (packet.cmd === 'connect') {
        write({ cmd: 'connack', sessionPresent: sessions++ > 0, reasonCode: connackCode });
      } else if (packet.cmd === 'subscribe') write({ cmd: 'suback', messageId: packet.messageId, granted: packet.subscriptions.map(() => 1) });
      else if (packet.cmd === 'unsubscribe') write({ cmd: 'unsuback', messageId: packet.messageId, granted: [0] } as Packet);
      else if (packet.cmd === 'pingreq') write({ cmd: 'pingresp' });
      else if (packet.cmd === 'publish' && packet.qos === 1) write({ cmd: 'puback', messageId: packet.messageId, reasonCode: 0 });
    });
    s.on('data', (chunk) => parser.parse(chunk));
    s.on('error', () => {});
  });
  const write = (packet: Packet) => socket?.write(mqttPacket.generate(packet, opts));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `mqtt://platform:pw@127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    pubacks: () => received.flatMap((p) => (p.cmd === 'puback' ? [p.messageId] : [])),
    publish: (messageId: number, payload: string, topic = `zg/${IMEI}/up`, dup = false) =>
      write({ cmd: 'publish', topic, payload, qos: 1, messageId, dup, retain: false }),
    waitFor: async (predicate: () => boolean, ms = 5000) => {
      const end = Date.now() + ms;
      while (!predicate()) {
        if (Date.now() > end) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => new Promise<void>((resolve) => { socket?.destroy(); server.close(() => resolve()); }),
  };
}

/** An Ingest whose every call waits for the test to settle it. */
function manualIngest() {
  const calls: { device: GatewaySession; payload: string; resolve(): void; reject(e: Error): void }[] = [];
  const ingest: Ingest = {
    ingest: (device, payload) => new Promise((resolve, reject) => {
      calls.push({ device, payload: payload.toString(), resolve: () => resolve('stored'), reject });
    }),
    stats: () => ({ received: 0, committed: 0, duplicates: 0, droppedMalformed: 0, droppedOversized: 0, failed: 0,
      queue: { queued: 0, writing: 0, queuedPeak: 0, batches: 0, written: 0, failedBatches: 0, refusedFull: 0 } }),
    close: async () => {},
  };
  return { ingest, calls };
}

const lookups: DeviceLookups = { lock: async (imei) => (imei === IMEI ? { key: imei, id: 7, tenantId: 100, hash: '', enabled: true } : undefined) };
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function setup(connackCode = 0) {
  const broker = await fakeBroker(connackCode);
  cleanup.push(broker.close);
  const { ingest, calls } = manualIngest();
  const start = startExternalBroker({ url: broker.url, clientId: 'platform-test', ingest, lookups, log: silentLog, startTimeoutMs: 3000 });
  return { broker, calls, start };
}

async function started(connackCode = 0) {
  const { broker, calls, start } = await setup(connackCode);
  const external: ExternalBroker = await start;
  cleanup.push(() => external.close());
  await broker.waitFor(() => broker.received.some((p) => p.cmd === 'subscribe'));
  return { broker, calls, external };
}

describe('external broker mode', () => {
  it('connects with a persistent MQTT 5 session and subscribes to the shared uplink filter at QoS 1', async () => {
    const { broker } = await started();
    const connect = broker.received.find((p) => p.cmd === 'connect');
    expect(connect).toMatchObject({ protocolVersion: 5, clean: false, clientId: 'platform-test', username: 'platform' });
    expect(connect?.properties?.sessionExpiryInterval).toBeGreaterThan(0);
    const subscribe = broker.received.find((p) => p.cmd === 'subscribe');
    expect(subscribe?.subscriptions).toEqual([expect.objectContaining({ topic: SHARED_UPLINK_FILTER, qos: 1 })]);
    expect(SHARED_UPLINK_FILTER).toBe('$share/platform/zg/+/up');
  });

  it('acknowledges only after the commit, in arrival order, while reading further uplinks', async () => {
    const { broker, calls, external } = await started();
    for (const id of [1, 2, 3]) broker.publish(id, `m${id}`);
    await broker.waitFor(() => calls.length === 3); // all three are being stored at once
    calls[1]?.resolve();
    calls[2]?.resolve();
    await new Promise((r) => setTimeout(r, 100));
    expect(broker.pubacks()).toEqual([]); // 2 and 3 are committed but 1 is not: nothing acknowledged yet
    calls[0]?.resolve();
    await broker.waitFor(() => broker.pubacks().length === 3);
    expect(broker.pubacks()).toEqual([1, 2, 3]);
    expect(external.stats()).toMatchObject({ received: 3, acked: 3, unacked: 0 });
  });

  it('reads no further uplink while Receive Maximum stores are running, even from a broker ignoring it', async () => {
    const broker = await fakeBroker();
    cleanup.push(broker.close);
    const { ingest, calls } = manualIngest();
    const external = await startExternalBroker({ url: broker.url, clientId: 'p', ingest, lookups, log: silentLog, receiveMaximum: 2 });
    cleanup.push(() => external.close());
    await broker.waitFor(() => broker.received.some((p) => p.cmd === 'subscribe'));
    for (const id of [1, 2, 3, 4, 5]) broker.publish(id, `m${id}`);
    await broker.waitFor(() => calls.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toHaveLength(2);
    calls[0]?.resolve();
    await broker.waitFor(() => calls.length === 3);
    for (const call of calls.slice(1)) call.resolve();
    await broker.waitFor(() => calls.length === 5);
    for (const call of calls.slice(3)) call.resolve();
    await broker.waitFor(() => broker.pubacks().length === 5);
    expect(broker.pubacks()).toEqual([1, 2, 3, 4, 5]);
  });

  it('sends no PUBACK for a failed store, drops the connection and acknowledges the redelivery', async () => {
    const { broker, calls, external } = await started();
    broker.publish(1, 'm1');
    await broker.waitFor(() => calls.length === 1);
    calls[0]?.reject(new Error('database down'));
    await broker.waitFor(() => broker.received.filter((p) => p.cmd === 'connect').length === 2, 5000);
    expect(broker.pubacks()).toEqual([]);
    broker.publish(1, 'm1', undefined, true); // the broker resends the unacknowledged uplink on the resumed session
    await broker.waitFor(() => calls.length === 2);
    expect(calls[1]?.payload).toBe('m1');
    calls[1]?.resolve();
    await broker.waitFor(() => broker.pubacks().length === 1);
    expect(external.stats()).toMatchObject({ connects: 2, acked: 1, unacked: 1 });
    // Subscribed again on the resumed session (a graceful close unsubscribes; the session keeps its queue).
    expect(broker.received.filter((p) => p.cmd === 'subscribe')).toHaveLength(2);
  });

  it('acknowledges and drops uplinks of unknown locks and foreign topics without storing them', async () => {
    const { broker, calls, external } = await started();
    broker.publish(1, 'x', 'zg/869999999999999/up');
    broker.publish(2, 'x', `zg/${IMEI}/down`);
    await broker.waitFor(() => broker.pubacks().length === 2);
    expect(calls).toHaveLength(0);
    expect(external.stats().droppedUnknown).toBe(2);
  });

  it('publishes downlinks with QoS 1 to zg/{imei}/down and cannot see deliveries', async () => {
    const { broker, external } = await started();
    const message = { msgId: 'c1', seq: 1, type: 'unlock', ts: Date.now(), data: {} } as never;
    await external.transport.publish(IMEI, message);
    const down = broker.received.find((p) => p.cmd === 'publish');
    expect(down).toMatchObject({ topic: `zg/${IMEI}/down`, qos: 1 });
    expect(external.transport.isConnected(IMEI)).toBeUndefined();
    expect(external.stats().downlinks).toBe(1);
  });

  it('unsubscribes at close, so the broker routes new uplinks to the other instances', async () => {
    const { broker, external } = await started();
    await external.close();
    expect(broker.received.find((p) => p.cmd === 'unsubscribe')).toMatchObject({ unsubscriptions: [SHARED_UPLINK_FILTER] });
  });

  it('subscribes to every served kind and hands an air switch uplink to ingest as that air switch', async () => {
    const broker = await fakeBroker();
    cleanup.push(broker.close);
    const { ingest, calls } = manualIngest();
    const serial = 'AS00000042';
    const both: DeviceLookups = { ...lookups, airSwitch: async (key) => (key === serial ? { key, id: 42, tenantId: 101, hash: '', enabled: true } : undefined) };
    const external = await startExternalBroker({ url: broker.url, clientId: 'p', ingest, lookups: both, log: silentLog });
    cleanup.push(() => external.close());
    await broker.waitFor(() => broker.received.some((p) => p.cmd === 'subscribe'));
    const subscribe = broker.received.find((p) => p.cmd === 'subscribe');
    expect(subscribe?.subscriptions.map((s) => s.topic)).toEqual([SHARED_UPLINK_FILTER, '$share/platform/as/+/up']);
    broker.publish(1, 'a1', `as/${serial}/up`);
    broker.publish(2, 'a2', 'as/AS00000043/up'); // unknown: acknowledged and dropped
    await broker.waitFor(() => calls.length === 1 && external.stats().droppedUnknown === 1);
    expect(calls[0]?.device).toEqual({ kind: 'airSwitch', airSwitchId: 42, tenantId: 101, serial });
    calls[0]?.resolve();
    await broker.waitFor(() => broker.pubacks().length === 2);
  });

  it('rejects at start when the broker refuses the platform credentials', async () => {
    const { start } = await setup(0x86);
    await expect(start).rejects.toThrow(/refused/);
  });
});
