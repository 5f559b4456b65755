/**
 * `npm start`: open (or create) the database, migrate, seed the demo, serve the API and the console,
 * start the device gateway and the simulated fleet, then print the URL and the demo sign-in.
 * Stops cleanly on SIGINT/SIGTERM.
 */
import { ACTIVITY_PRESETS, startFleet } from '@iot/simulator';
import { attachSimulator } from './modules/credential/simulator.js';
import { WEB_BASE_PATH } from '@iot/contract';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import { seedDemo } from './db/seed.js';
import { startGateway } from './gateway/index.js';
import { issueSimulatorCredentials } from './modules/lockDevice/credentials.js';
import { startHeartbeatRetention } from './modules/logHeartbeat/retention.js';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await migrateDatabase(database);
const created = await seedDemo(database, {
  adminPassword: config.ADMIN_PASSWORD, operatorPassword: config.OPERATOR_PASSWORD, simLocks: config.SIM_LOCKS,
});
const app = await buildApp({ config, database });
await app.listen({ port: config.PORT, host: config.HOST });
const gateway = await startGateway({ database, config, log: app.log });
const retention = startHeartbeatRetention(database, app.log, { days: config.HEARTBEAT_RETENTION_DAYS });

let fleet: Awaited<ReturnType<typeof startFleet>> | undefined;
if (config.SIM_LOCKS > 0) {
  // Each lock beats at SIM_HEARTBEAT_S or its SIM_HEARTBEAT_S_BY_IMEI interval and reports it (heartbeat intervalS).
  const devices = (await issueSimulatorCredentials(database)).slice(0, config.SIM_LOCKS)
    .map((device) => ({ ...device, heartbeatIntervalS: config.SIM_HEARTBEAT_S_BY_IMEI[device.imei] ?? config.SIM_HEARTBEAT_S }));
  // External broker: the same host and port, but the locks' own credentials, never the platform's.
  const brokerUrl = config.MQTT_URL ? deviceBrokerUrl(config.MQTT_URL) : `mqtt://127.0.0.1:${gateway.port}`;
  fleet = await startFleet({ brokerUrl, devices, wakeWindowMs: config.WAKE_WINDOW_MS, log: app.log, activity: ACTIVITY_PRESETS[config.SIM_ACTIVITY],
    behaviour: config.SIM_OUTAGES ? undefined : { flakyRatio: 0 } });
  attachSimulator(app, fleet); // demo/test: POST /iot/v1/simulator/attemptOpen
}

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
const lines = [
  '',
  `  物联网中台 is running: http://localhost:${port}${WEB_BASE_PATH}/`,
  `  Database: ${database.kind === 'pglite' ? `PGlite in ${config.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)'}`,
  `  MQTT broker: ${config.MQTT_URL ?? `embedded, port ${gateway.port}`}; simulated locks: ${fleet ? config.SIM_LOCKS : 0}`,
  ...created.map((c) => `  Demo sign-in (shown once, keep it): ${c.username} / ${c.password}`),
  ...(created.length === 0 ? ['  Demo sign-in: admin and operator, with the passwords printed on first start (or ADMIN_PASSWORD / OPERATOR_PASSWORD)'] : []),
  '',
];
// Printed on stdout, not through the logger: the generated passwords must never reach the logs.
process.stdout.write(`${lines.join('\n')}\n`);

/** `url` without user name and password (mqtt://user:pass@host:port -> mqtt://host:port). */
function deviceBrokerUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'stopping');
  await fleet?.stop();
  await retention.stop();
  await gateway.close();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
