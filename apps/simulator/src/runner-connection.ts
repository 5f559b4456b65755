/**
 * The MQTT side of one simulated lock (runner.ts): its connect options (docs/protocol.md: client id =
 * username = IMEI, password = device secret, persistent session, MQTT 3.1.1) and how a connection is
 * ended, gracefully (the last uplinks' PUBACKs awaited) or forced after a deadline.
 */
import type { IConnackPacket } from 'mqtt';
import mqtt, { type MqttClient } from 'mqtt';
import type { Random, SimulatorLog } from './types.js';

/** What a lock does with its connection's events. */
export interface ConnectionHandlers {
  onConnect(client: MqttClient, connack: IConnackPacket): void;
  /** A payload on the lock's downlink topic. */
  onMessage(payload: Buffer): void;
}

/** How long a graceful end may take before the connection is dropped, ms. */
const END_DEADLINE_MS = 2000;

/**
 * Connects lock `imei` with `secret` to `brokerUrl`; reconnects every 1-5 s (randomised so a fleet does
 * not stampede). Errors are logged once until the next successful connect.
 */
export function connectLock(brokerUrl: string, imei: string, secret: string, random: Random, handlers: ConnectionHandlers, log?: SimulatorLog): MqttClient {
  const client = mqtt.connect(brokerUrl, {
    protocolVersion: 4,
    clientId: imei,
    username: imei,
    password: secret,
    clean: false,
    keepalive: 60,
    connectTimeout: 15_000,
    reconnectPeriod: 1000 + Math.floor(random() * 4000),
  });
  let warned = false;
  client.on('connect', (connack) => {
    warned = false;
    handlers.onConnect(client, connack);
  });
  client.on('message', (_topic, payload) => handlers.onMessage(payload));
  client.on('error', (error) => {
    if (!warned) log?.warn({ imei, err: error.message }, 'simulated lock: mqtt error');
    warned = true;
  });
  return client;
}

/** Ends `client` gracefully, forced after END_DEADLINE_MS; `onGone` runs once, when it is gone either way. */
export function endThen(client: MqttClient, onGone: () => void): void {
  let gone = false;
  const once = () => {
    if (gone) return;
    gone = true;
    onGone();
  };
  client.end(false, {}, once);
  setTimeout(() => { if (!gone) client.end(true, {}, once); }, END_DEADLINE_MS);
}

/** Ends `client` (gracefully when connected), forced after END_DEADLINE_MS. Never rejects. */
export async function endWithin(client: MqttClient): Promise<void> {
  const graceful = client.connected ? client.endAsync(false) : client.endAsync(true);
  let timeout: NodeJS.Timeout | undefined;
  const forced = new Promise<void>((resolve) => {
    timeout = setTimeout(() => client.end(true, () => resolve()), END_DEADLINE_MS);
  });
  await Promise.race([graceful.catch(() => {}), forced]);
  clearTimeout(timeout);
}
