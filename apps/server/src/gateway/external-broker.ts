/**
 * External broker mode (`MQTT_URL`, docs/deploy.md "External MQTT broker"): the server is an MQTT 5
 * client of Mosquitto / EMQX instead of running aedes. Devices authenticate at the broker (its
 * password file / auth backend and ACL); the platform only maps the topic's device name (IMEI, serial)
 * onto its row, for every kind of device-kinds.ts.
 *
 * - Persistent session: `clean: false`, Session Expiry Interval `sessionExpiryS`, one stable client id
 *   per server instance, so uplinks published while this instance is away wait for it at the broker.
 * - `$share/platform/zg/+/up` (and `$share/platform/as/+/up`, air switches) at QoS 1: the broker spreads
 *   the uplinks over every instance.
 * - PUBACK to the broker only after `ingest()` resolved, pipelined, in order, with backpressure
 *   (deferred-puback.ts, which also explains the mqtt.js internals this relies on). A failed store
 *   drops the connection without PUBACK: the broker redelivers on the resumed session, and the
 *   redelivered copy is stored once: each (lock, seq) is stored once (logHeartbeat insertHeartbeats,
 *   the uplinks' unique (lock, seq)).
 * - Uplinks on a malformed topic or of an unknown / disabled lock are acknowledged and dropped (counted).
 */
import { protocol } from '@iot/contract';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { DeviceLookups } from './auth.js';
import { GATEWAY_KINDS, parseDeviceTopic } from './device-kinds.js';
import { deferPubacks } from './deferred-puback.js';
import type { Ingest } from './ingest.js';
import { createSessionCache } from './session-cache.js';
import type { GatewayLog } from './log.js';
import type { DownlinkTransport } from './transport.js';

/** A kind's uplinks shared over the instances (`$share/platform/zg/+/up`, `$share/platform/as/+/up`, ...). */
const sharedFilter = (uplinkWildcard: string) => `$share/platform/${uplinkWildcard}`;
export const SHARED_UPLINK_FILTER = sharedFilter(protocol.UPLINK_WILDCARD);

export interface ExternalBrokerOptions {
  /** mqtt://user:pass@host:port of the broker; user/pass = the platform's own broker account. */
  url: string;
  /** Stable per server instance (the persistent session's key). */
  clientId: string;
  ingest: Ingest;
  /** Devices by name, per kind (auth.ts createDeviceLookups); a kind without one is not subscribed. */
  lookups: DeviceLookups;
  log: GatewayLog;
  /** Most unacknowledged uplinks the broker may send this instance (MQTT 5 Receive Maximum; default 1000). */
  receiveMaximum?: number;
  /** How long the broker keeps the session while this instance is away, s (default 86,400). */
  sessionExpiryS?: number;
  /** How long start waits for the first connection before resolving anyway (and retrying), ms (default 15,000). */
  startTimeoutMs?: number;
  /** How long a device row (id, tenant, enabled) is reused for uplinks, ms (default 10,000). */
  lockCacheMs?: number;
}

export interface ExternalBrokerStats {
  /** Connected to the broker now. */
  connected: boolean;
  /** Successful CONNACKs since start (1 + reconnects). */
  connects: number;
  /** Uplinks received (including redeliveries). */
  received: number;
  /** PUBACKs written (after commit or deliberate drop). */
  acked: number;
  /** Uplinks left unacknowledged because the store failed or the connection dropped first. */
  unacked: number;
  /** Uplinks acknowledged and dropped: topic not `zg/{imei}/up`, or the lock is unknown or disabled. */
  droppedUnknown: number;
  /** Downlinks the broker has taken (PUBACK received). */
  downlinks: number;
}

export interface ExternalBroker {
  transport: DownlinkTransport;
  stats(): ExternalBrokerStats;
  /** Graceful: unsubscribes, drains, writes the PUBACKs, disconnects (the session stays at the broker). */
  close(): Promise<void>;
}

/**
 * Connects to the broker and subscribes (on every connect). Rejects when the broker refuses the
 * credentials; any other connection trouble is retried every second in the background.
 */
export async function startExternalBroker(options: ExternalBrokerOptions): Promise<ExternalBroker> {
  const { ingest, lookups, log } = options;
  const counters = { connects: 0, received: 0, droppedUnknown: 0, downlinks: 0 };
  const maxStoring = options.receiveMaximum ?? 1000;
  const filters = GATEWAY_KINDS.filter((kind) => lookups[kind.kind]).map((kind) => sharedFilter(kind.topics.uplinkWildcard));
  let acks: ReturnType<typeof deferPubacks> | undefined;
  const clientOptions: IClientOptions = {
    protocolVersion: 5,
    clientId: options.clientId,
    clean: false,
    resubscribe: false,
    reconnectPeriod: 1000,
    reconnectOnConnackError: true, // keep retrying after a refusal at run time (broker busy, restarting)
    connectTimeout: 10_000,
    keepalive: 30,
    properties: { sessionExpiryInterval: options.sessionExpiryS ?? 86_400, receiveMaximum: maxStoring },
    customHandleAcks(topic, payload, packet, callback) {
      counters.received++;
      if (packet.messageId !== undefined) acks?.defer(packet.messageId, store(topic, payload));
      callback(0); // mqtt.js now passes the PUBACK to _sendPacket, where deferPubacks holds it until the commit
    },
  };
  const client: MqttClient = mqtt.connect(options.url, clientOptions);
  acks = deferPubacks(client, maxStoring);
  const device = createSessionCache(lookups, options.lockCacheMs ?? 10_000);
  /**
   * Resolves true when the uplink may be acknowledged (committed or deliberately dropped). Never
   * rejects; on failure drops the connection so the broker redelivers (QoS 1 only: `qos1` true).
   */
  async function store(topic: string, payload: Buffer, qos1 = true): Promise<boolean> {
    const parsed = parseDeviceTopic(topic);
    try {
      const session = parsed?.direction === 'up' ? await device(parsed.kind, parsed.id) : undefined;
      if (!session) {
        counters.droppedUnknown++;
        return true;
      }
      await ingest.ingest(session, payload);
      return true;
    } catch (error) {
      if (qos1 && client.connected) {
        log.warn({ err: error }, 'uplink not stored; dropping the broker connection so it redelivers');
        client.stream.destroy(); // mqtt.js reconnects after reconnectPeriod; the session resumes
      }
      return false;
    }
  }

  client.on('connect', (connack) => {
    counters.connects++;
    log.info({ clientId: options.clientId, sessionPresent: connack.sessionPresent }, 'connected to the external mqtt broker');
    // Always (re)subscribe: a graceful close() unsubscribed, while the session and its queue survived.
    client.subscribe(filters, { qos: 1 }, (error, granted) => filters.forEach((filter, index) => {
      const code = granted?.[index]?.qos;
      if (error || code === undefined || code > 2) log.error({ err: error, code }, `subscription to ${filter} refused`);
    }));
  });
  // QoS 0 uplinks bypass customHandleAcks: stored the same way, without any guarantee (docs/protocol.md).
  client.on('message', (topic, payload, packet) => {
    if (packet.qos !== 0) return;
    counters.received++;
    void store(topic, payload, false);
  });
  client.on('error', (error) => log.warn({ err: error.message }, 'external mqtt broker error'));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      log.warn({ url: redact(options.url) }, 'external mqtt broker not reachable yet; retrying in the background');
      done();
    }, options.startTimeoutMs ?? 15_000);
    const onError = (error: Error & { code?: number }) => {
      // CONNACK 0x86 bad user name or password, 0x87 not authorized, 0x85 client id not valid: do not retry.
      if (error.code === 0x86 || error.code === 0x87 || error.code === 0x85) {
        reject(new Error(`external mqtt broker refused the platform's connection: ${error.message}`));
        done();
        client.end(true);
      }
    };
    const done = () => {
      clearTimeout(timer);
      client.off('connect', onConnect).off('error', onError);
      resolve();
    };
    const onConnect = () => done();
    client.on('connect', onConnect).on('error', onError);
  });

  const transport: DownlinkTransport = {
    async publish(imei, message) {
      await client.publishAsync(protocol.downlinkTopic(imei), JSON.stringify(message), { qos: 1 });
      counters.downlinks++;
    },
    publishTo: (topic, message) => client.publishAsync(topic, JSON.stringify(message), { qos: 1 }).then(() => { counters.downlinks++; }),
    onDelivered() {}, // the platform never sees a device's PUBACK through an external broker
    isConnected: () => undefined,
    isSubscribed: () => undefined,
    disconnect: () => {},
  };

  return {
    transport,
    stats: () => ({ connected: client.connected, ...counters, ...(acks as ReturnType<typeof deferPubacks>).stats() }),
    /** Unsubscribes, stores what still comes until 300 ms pass without an uplink (<= 10 s), acks, disconnects. */
    async close() {
      const deadline = Date.now() + 10_000;
      if (client.connected) await Promise.race([client.unsubscribeAsync(filters).catch(() => {}), sleep(2000)]);
      for (let seen = -1; seen !== counters.received && Date.now() < deadline; ) {
        seen = counters.received;
        await sleep(300);
      }
      await Promise.race([acks?.settled(), sleep(Math.max(1000, deadline - Date.now()))]);
      await client.endAsync(false);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The URL without its password, for logs. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
