/**
 * The demo (DEMO=on): seed data centres 100/101, the accounts `admin` and `operator` and SIM_LOCKS
 * simulated locks, then run the simulated fleet against the gateway and attach it to the simulated
 * keypad route. main.ts imports this module dynamically, only with DEMO=on, so a production process
 * never loads the simulator.
 */
import { ACTIVITY_PRESETS, type Fleet, startFleet } from '@iot/simulator';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { type SeededCredential, seedDemo } from './db/seed.js';
import { issueSimulatorCredentials } from './modules/lockDevice/credentials.js';
import { attachSimulator } from './modules/credential/simulator.js';

/**
 * Seeds the demo data (idempotent); returns the passwords it generated, to be printed once.
 * @public main.ts imports this module dynamically (knip 5 does not follow that import's members).
 */
export function seedDemoData(database: Database, config: Config): Promise<SeededCredential[]> {
  return seedDemo(database, { adminPassword: config.ADMIN_PASSWORD, operatorPassword: config.OPERATOR_PASSWORD, simLocks: config.SIM_LOCKS });
}

/**
 * Starts SIM_LOCKS simulated locks (none when 0) on the gateway's broker; returns the fleet, if any.
 * @public main.ts imports this module dynamically.
 */
export async function startDemoFleet(app: FastifyInstance, database: Database, config: Config, brokerPort: number): Promise<Fleet | undefined> {
  if (config.SIM_LOCKS <= 0) return undefined;
  // Each lock beats at SIM_HEARTBEAT_S or its SIM_HEARTBEAT_S_BY_IMEI interval and reports it (heartbeat intervalS).
  const devices = (await issueSimulatorCredentials(database)).slice(0, config.SIM_LOCKS)
    .map((device) => ({ ...device, heartbeatIntervalS: config.SIM_HEARTBEAT_S_BY_IMEI[device.imei] ?? config.SIM_HEARTBEAT_S }));
  // External broker: the same host and port, but the locks' own credentials, never the platform's.
  const brokerUrl = config.MQTT_URL ? deviceBrokerUrl(config.MQTT_URL) : `mqtt://127.0.0.1:${brokerPort}`;
  const fleet = await startFleet({ brokerUrl, devices, wakeWindowMs: config.WAKE_WINDOW_MS, log: app.log, activity: ACTIVITY_PRESETS[config.SIM_ACTIVITY],
    behaviour: config.SIM_OUTAGES ? undefined : { flakyRatio: 0 } });
  attachSimulator(app, fleet); // POST /iot/v1/simulator/attemptOpen
  return fleet;
}

/** `url` without user name and password (mqtt://user:pass@host:port -> mqtt://host:port). */
function deviceBrokerUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}
