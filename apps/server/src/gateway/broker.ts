/**
 * The embedded MQTT broker (aedes 1.x, MQTT 3.1.1) on a TCP port, wired to device authentication,
 * topic rules and the transport-neutral ingest.
 *
 * Where the acknowledgement happens: aedes answers a QoS 1 PUBLISH with PUBACK right after its
 * `authorizePublish` hook calls back (lib/handlers/publish.js: authorizePublish -> enqueuePublish ->
 * PUBACK -> broker.publish). The hook therefore waits for `ingest()` (i.e. the commit) before calling
 * back; when the store fails it calls back with an error, aedes closes the connection without PUBACK
 * and the device resends the message after reconnecting. While a client's packets are being
 * authorized aedes reads no further packets from its socket, so a slow database slows the devices
 * down through TCP instead of piling messages up in memory.
 *
 * Malformed or oversized uplinks are acknowledged (a device would otherwise resend the same poison
 * message forever), not stored, counted and logged; the connection stays open. They are never
 * forwarded: `authorizeForward` lets a client receive only its own downlink topic, so uplinks reach
 * no MQTT subscriber at all (the platform consumes them in the hook).
 */
import type { EventEmitter } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { type AuthResult, mayPublish, maySubscribe } from './auth.js';
import type { GatewaySession } from './device-kinds.js';
import type { Ingest } from './ingest.js';
import type { GatewayLog } from './log.js';

export interface EmbeddedBrokerOptions {
  /** Interface to bind, e.g. 0.0.0.0 or 127.0.0.1. */
  host: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  authenticate(clientId: string, username: string | undefined, password: Buffer | undefined): Promise<AuthResult>;
  ingest: Ingest;
  log: GatewayLog;
}

export interface BrokerStats {
  /** Devices connected now. */
  connected: number;
  /** CONNECTs refused (bad credentials, disabled lock, wrong client id, database down). */
  refusedConnect: number;
  /** PUBLISHes refused (foreign topic, will message); the connection was closed. */
  refusedPublish: number;
  /** Subscriptions refused (anything but the device's own downlink topic); SUBACK 0x80. */
  refusedSubscribe: number;
}

export interface EmbeddedBroker {
  /** The bound TCP port. */
  port: number;
  /** The aedes instance (embedded-transport.ts publishes downlinks through it). */
  aedes: Aedes;
  stats(): BrokerStats;
  /** Stops accepting, disconnects every client, waits for in-flight authorizations to finish. */
  close(): Promise<void>;
}

/** Starts aedes on `host:port`. Rejects when the port cannot be bound. */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { ingest, log } = options;
  const sessions = new WeakMap<Client, GatewaySession>();
  const counters = { refusedConnect: 0, refusedPublish: 0, refusedSubscribe: 0 };
  /** Authentications and uplinks being processed; close() waits for them. */
  let inflight = 0;
  let closing = false;
  let idle: (() => void) | undefined;

  const broker = await Aedes.createBroker({
    authenticate(client, username, password, done) {
      inflight++;
      options.authenticate(client.id, username, password).then(
        (result) => settle(() => {
          if (result.ok) {
            sessions.set(client, result.device);
            return done(null, true);
          }
          counters.refusedConnect++;
          log.warn({ clientId: client.id, username, reason: result.reason }, 'device connection refused');
          done(Object.assign(new Error(result.reason), { returnCode: result.returnCode }) as AuthenticateError, false);
        }),
        (error: unknown) => settle(() => {
          counters.refusedConnect++;
          if (!closing) log.error({ clientId: client.id, err: error }, 'device authentication failed');
          done(Object.assign(new Error('server unavailable'), { returnCode: 3 }) as AuthenticateError, false);
        }),
      );
    },

    authorizePublish(client, packet, done) {
      const device = client ? sessions.get(client) : undefined;
      // Will messages (no `cmd`) are refused: a device reports only through its own uplinks.
      if (!device || packet.cmd !== 'publish' || !mayPublish(device, packet.topic)) {
        if (packet.cmd === 'publish') {
          counters.refusedPublish++;
          log.warn({ clientId: client?.id, topic: packet.topic }, 'device publish refused; disconnecting');
        }
        return done(new Error('publish not allowed'));
      }
      packet.retain = false; // nothing device-sent is retained by the broker
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      inflight++;
      ingest.ingest(device, payload).then(
        () => settle(() => done(null)),
        (error: Error) => settle(() => done(error)),
      );
    },

    authorizeSubscribe(client, subscription, done) {
      const device = sessions.get(client);
      if (device && maySubscribe(device, subscription.topic)) return done(null, subscription);
      counters.refusedSubscribe++;
      log.warn({ clientId: client.id, topic: subscription.topic }, 'device subscription refused');
      done(null, null); // SUBACK 0x80 for this filter; the connection stays open
    },

    authorizeForward(client, packet) {
      const device = sessions.get(client);
      return device && maySubscribe(device, packet.topic) ? packet : null;
    },
  });

  function settle(callback: () => void): void {
    inflight--;
    try {
      callback();
    } finally {
      if (inflight === 0 && idle) idle();
    }
  }

  (broker as unknown as EventEmitter).on('error', (error: Error) => log.error({ err: error }, 'mqtt broker error'));
  broker.on('clientError', (client: Client, error: Error) => {
    log.debug?.({ clientId: client.id, err: error.message }, 'mqtt client error');
  });

  const server = createServer(broker.handle);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log.error({ err: error }, 'mqtt listener error'));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    aedes: broker,
    stats: () => ({ connected: broker.connectedClients, ...counters }),
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      for (const socket of sockets) socket.destroy(); // connections that never sent CONNECT
      await closed;
      if (inflight > 0) await new Promise<void>((resolve) => (idle = resolve));
    },
  };
}
