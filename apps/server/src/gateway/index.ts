/**
 * The device gateway (ARCHITECTURE.md "Device protocol", docs/protocol.md): device authentication,
 * topic rules and durable uplink ingest. The ingest pipeline (ingest.ts -> batcher.ts ->
 * heartbeat-store.ts) is independent of the transport; today the transport is the embedded aedes
 * broker (broker.ts). External broker mode (`MQTT_URL`) is not implemented yet.
 */
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { authenticateDevice, createLockLookup } from './auth.js';
import { type BrokerStats, startEmbeddedBroker } from './broker.js';
import { createIngest, type IngestStats } from './ingest.js';
import type { GatewayLog } from './log.js';

export type { GatewayLog } from './log.js';
export type { DeviceSession } from './ingest.js';
export { issueSimulatorCredentials } from './provision.js';

export interface GatewayOptions {
  database: Database;
  config: Pick<Config, 'MQTT_PORT' | 'MQTT_URL' | 'HOST'>;
  /** pino-compatible (fastify's `app.log`, `pino()`). */
  log: GatewayLog;
  /** Group-commit tuning for tests and benchmarks (defaults: 500 messages, 20 ms, 10,000 queued). */
  ingest?: { maxBatch?: number; maxDelayMs?: number; maxQueue?: number };
}

export interface GatewayStats {
  broker: BrokerStats;
  ingest: IngestStats;
}

export interface Gateway {
  /** The MQTT port actually bound (useful with MQTT_PORT=0). */
  port: number;
  /** Counters since start; see BrokerStats and IngestStats for units. */
  stats(): GatewayStats;
  /** Disconnects every device, stores what was accepted, releases the port. Does not close the database. */
  close(): Promise<void>;
}

/**
 * Starts the gateway: without `config.MQTT_URL`, an embedded MQTT 3.1.1 broker on
 * `config.HOST:config.MQTT_PORT` (0 = a free port, returned as `port`).
 * Rejects when the port cannot be bound, or when `MQTT_URL` is set (external broker: not yet).
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const { database, config, log } = options;
  if (config.MQTT_URL) throw new Error('MQTT_URL (external broker) is not supported yet; unset it to use the embedded broker');
  const ingest = createIngest({ database, log, ...options.ingest });
  const lookup = createLockLookup(database);
  let broker: Awaited<ReturnType<typeof startEmbeddedBroker>>;
  try {
    broker = await startEmbeddedBroker({
      host: config.HOST,
      port: config.MQTT_PORT,
      authenticate: (clientId, username, password) => authenticateDevice(lookup, clientId, username, password),
      ingest,
      log,
    });
  } catch (error) {
    await ingest.close();
    throw error;
  }
  log.info({ host: config.HOST, port: broker.port }, 'mqtt broker listening');
  return {
    port: broker.port,
    stats: () => ({ broker: broker.stats(), ingest: ingest.stats() }),
    async close() {
      await broker.close();
      await ingest.close();
      log.info({ port: broker.port }, 'mqtt broker closed');
    },
  };
}
