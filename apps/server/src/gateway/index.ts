/**
 * The device gateway (ARCHITECTURE.md "Device protocol", docs/protocol.md): device authentication,
 * topic rules and durable uplink ingest. The ingest pipeline (ingest.ts -> batcher.ts ->
 * uplink-store.ts, which writes through the owner modules' services) is independent of the transport: the embedded aedes broker (broker.ts) by
 * default, or, with `MQTT_URL`, an MQTT 5 client of an external broker sharing the uplinks with the
 * other server instances (external-broker.ts).
 */
import type { DeviceKind } from '@iot/contract';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { authenticateDevice, createDeviceLookups } from './auth.js';
import { type BrokerStats, startEmbeddedBroker } from './broker.js';
import { type ExternalBrokerStats, redact, startExternalBroker } from './external-broker.js';
import { createIngest, type IngestStats } from './ingest.js';
import type { GatewayLog } from './log.js';
import type { DownlinkTransport } from './transport.js';
import { createEmbeddedTransport } from './embedded-transport.js';
import { GATEWAY_KINDS } from './device-kinds.js';
import type { DeviceDispatcher } from './outbox/device-dispatcher.js';
import type { DispatcherTuning, OutboxConfig } from './outbox/dispatcher.js';
import { packageStoreFor } from '../modules/firmware/storage.js';
import { type OtaStats, type OtaTransfer, startOtaTransfer } from './ota.js';
import type { UplinkRecord } from './uplink-store.js';

export type { GatewayLog } from './log.js';

export interface GatewayOptions {
  database: Database;
  config: Pick<Config, 'MQTT_PORT' | 'MQTT_URL' | 'HOST'> & Partial<Pick<Config, 'MQTT_CLIENT_ID' | 'PORT' | 'TELEMETRY_TIME_ZONE'>> & OutboxConfig;
  /** pino-compatible (fastify's `app.log`, `pino()`). */
  log: GatewayLog;
  /** Group-commit tuning for tests and benchmarks (defaults: 500 messages, 20 ms, 10,000 queued). */
  ingest?: { maxBatch?: number; maxDelayMs?: number; maxQueue?: number };
  /** Command dispatcher tuning (defaults from config; gateway/outbox/dispatcher.ts). */
  outbox?: DispatcherTuning;
}

export interface GatewayStats {
  /** Embedded broker counters (all 0 in external broker mode). */
  broker: BrokerStats;
  /** External broker mode only. */
  external?: ExternalBrokerStats;
  ingest: IngestStats;
}

export interface Gateway {
  /** The MQTT port actually bound (useful with MQTT_PORT=0); 0 in external broker mode. */
  port: number;
  /** Downlinks to locks (zg/{imei}/down, QoS 1). The embedded broker's (embedded-transport.ts) or the external one's. */
  transport: DownlinkTransport;
  /** Each device kind's command dispatcher over `transport` (device-kinds.ts). */
  dispatchers: ReadonlyMap<DeviceKind, DeviceDispatcher>;
  /** The firmware transfer (gateway/ota.ts) running over `transport`. */
  ota: OtaTransfer & { stats(): OtaStats };
  /** Counters since start; see BrokerStats and IngestStats for units. */
  stats(): GatewayStats;
  /** Disconnects every device, stores what was accepted, releases the port. Does not close the database. */
  close(): Promise<void>;
}

/**
 * Starts the gateway: without `config.MQTT_URL`, an embedded MQTT 3.1.1 broker on
 * `config.HOST:config.MQTT_PORT` (0 = a free port, returned as `port`).
 * Rejects when the port cannot be bound. With `config.MQTT_URL`, connects to that broker as client
 * `config.MQTT_CLIENT_ID` (default `platform-<hostname>-<PORT>`); rejects when it refuses the credentials.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const gateway = await startTransport(options);
  const stopDropping = dropSessionsOnChange(options.database, gateway.transport);
  return { ...gateway, close: async () => { stopDropping(); await gateway.close(); } };
}

/**
 * Drops the MQTT session of a lock disabled, decommissioned or given a new secret (its registry's
 * `lock.changed` / `lock.secretReset`, from any instance): the lock must connect, and be checked, anew.
 * Returns the function that stops following.
 */
function dropSessionsOnChange(database: Database, transport: DownlinkTransport): () => void {
  const drop = (imei: string) => transport.disconnect?.(imei);
  const stops = [
    database.events.on('lock.secretReset', ({ imei }) => drop(imei)),
    database.events.on('lock.changed', ({ imei, change }) => { if (change === 'disabled' || change === 'decommissioned') drop(imei); }),
  ];
  return () => { for (const stop of stops) stop(); };
}

async function startTransport(options: GatewayOptions): Promise<Gateway> {
  const { database, config, log } = options;
  const dispatchers = new Map<DeviceKind, DeviceDispatcher>();
  let ota: (OtaTransfer & { stats(): OtaStats }) | undefined;
  // Bound late: the ingest exists before the transport, the dispatchers and the transfer after it.
  const onCommitted = (kind: DeviceKind, deviceIds: readonly number[], records: readonly unknown[]) => {
    dispatchers.get(kind)?.wake(deviceIds); // a device that just sent is reachable
    if (kind === 'lock') ota?.onCommitted(records as readonly UplinkRecord[]); // firmware transfer: locks only
  };
  /** Starts every kind's dispatcher and the firmware transfer over `transport`; returns the transfer and their closer. */
  const startSenders = (transport: DownlinkTransport) => {
    for (const kind of GATEWAY_KINDS) {
      dispatchers.set(kind.kind, kind.startDispatcher({ database, transport, log, config, tuning: options.outbox }));
    }
    const transfer = startOtaTransfer({ database, transport, store: packageStoreFor(config.DATA_DIR ?? './data'), log, sweepMs: config.COMMAND_SWEEP_MS });
    ota = transfer;
    const close = async () => {
      for (const dispatcher of dispatchers.values()) await dispatcher.close();
      await transfer.close();
    };
    return { transfer, close };
  };
  const ingest = createIngest({ database, log, ...options.ingest, onCommitted, telemetryTimeZone: config.TELEMETRY_TIME_ZONE });
  const lookups = createDeviceLookups(database);
  if (config.MQTT_URL) {
    const clientId = config.MQTT_CLIENT_ID ?? `platform-${hostname()}-${config.PORT ?? 0}`;
    const external = await startExternalBroker({ url: config.MQTT_URL, clientId, ingest, lookups, log }).catch(async (error) => {
      await ingest.close();
      throw error;
    });
    const senders = startSenders(external.transport);
    const idle: BrokerStats = { connected: 0, refusedConnect: 0, refusedPublish: 0, refusedSubscribe: 0 };
    return {
      port: 0,
      transport: external.transport,
      dispatchers,
      ota: senders.transfer,
      stats: () => ({ broker: idle, external: external.stats(), ingest: ingest.stats() }),
      async close() {
        await senders.close();
        await external.close();
        await ingest.close();
        log.info({ url: redact(config.MQTT_URL as string), external: external.stats(), ingest: ingest.stats() }, 'external mqtt broker client closed');
      },
    };
  }
  let broker: Awaited<ReturnType<typeof startEmbeddedBroker>>;
  try {
    broker = await startEmbeddedBroker({
      host: config.HOST,
      port: config.MQTT_PORT,
      authenticate: (clientId, username, password) => authenticateDevice(lookups, clientId, username, password),
      ingest,
      log,
    });
  } catch (error) {
    await ingest.close();
    throw error;
  }
  log.info({ host: config.HOST, port: broker.port }, 'mqtt broker listening');
  const transport = createEmbeddedTransport(broker.aedes);
  const senders = startSenders(transport);
  return {
    port: broker.port,
    transport,
    dispatchers,
    ota: senders.transfer,
    stats: () => ({ broker: broker.stats(), ingest: ingest.stats() }),
    async close() {
      await senders.close();
      await broker.close();
      await ingest.close();
      log.info({ port: broker.port }, 'mqtt broker closed');
    },
  };
}
