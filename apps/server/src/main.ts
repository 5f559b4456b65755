/**
 * The server process (`npm start`, or `node apps/server/dist/main.js` once built): open (or create) the
 * database, migrate, then
 * - DEMO=on: seed the demo and run the simulated fleet (demo.ts, imported only then);
 * - DEMO=off: create the first data centre and administrator when missing (ADMIN_USERNAME/ADMIN_PASSWORD);
 * serve the API and the console, start the device gateway and the periodic jobs, print the URL.
 *
 * Lifecycle (close-with-grace): SIGTERM/SIGINT start a graceful shutdown with a deadline
 * (SHUTDOWN_TIMEOUT_MS): /readyz turns 503, HTTP stops accepting and finishes in-flight requests, the
 * fleet, the retention job, the presence sweep, the payment reconciliation, the gateway (command dispatcher, broker, ingest flush) and the push worker stop in that
 * order, then the database closes; past the deadline the process exits 1. An uncaught exception or
 * unhandled rejection is logged and fatal (the same shutdown, exit code 1).
 */
import { WEB_BASE_PATH } from '@iot/contract';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { ensureFirstAdministrator } from './db/bootstrap.js';
import { type Database, openDatabase } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import type { SeededCredential } from './db/seed.js';
import { type Gateway, startGateway } from './gateway/index.js';
import { handlersFinished } from './http/health-plugin.js';
import { setSessionDropper } from './modules/lockDevice/sessions.js';
import { type RetentionJob, startHeartbeatRetention } from './modules/logHeartbeat/retention.js';
import { startAirSwitchRetention } from './modules/airSwitch/retention.js';
import { lazySecretBox } from './crypto/secret-box.js';
import { egressPolicyOf } from './modules/subscription/egress.js';
import { type PresenceSweep, startPresenceSweep } from './modules/subscription/presence.js';
import { type AnalysisJob, startAnalysisJob } from './modules/analysis/job.js';
import { snapshotPeriods } from './modules/analysis/snapshot.js';
import { type DeliveryWorker, startDeliveryWorker } from './modules/subscription/worker.js';
import { type Reconciler, startReconciler } from './modules/wx/reconcile.js';

const config = loadConfig();
let database: Database | undefined;
let app: FastifyInstance | undefined;
let gateway: Gateway | undefined;
let retention: RetentionJob | undefined;
let telemetryRetention: RetentionJob | undefined;
let reconciler: Reconciler | undefined;
let fleet: { stop(): Promise<void> } | undefined;
let pushes: DeliveryWorker | undefined;
let presence: PresenceSweep | undefined;
let analysis: AnalysisJob | undefined;

const log = (level: 'info' | 'error' | 'fatal', object: object, message: string) => {
  if (app) app.log[level](object, message);
  else process.stderr.write(`${JSON.stringify({ level, ...object, msg: message })}\n`);
};

closeWithGrace({ delay: config.SHUTDOWN_TIMEOUT_MS, logger: { error: (message: unknown) => log('error', {}, String(message)) } }, async ({ signal, err }) => {
  if (err) log('fatal', { err }, 'fatal error: shutting down');
  log('info', { signal }, 'stopping');
  if (app) app.lifecycle.stopping = true;
  await app?.close(); // no new requests (503), in-flight ones finish
  if (app && !(await handlersFinished(app, config.SHUTDOWN_TIMEOUT_MS / 2))) log('error', {}, 'handlers still running at shutdown');
  await fleet?.stop();
  await retention?.stop();
  await telemetryRetention?.stop();
  await presence?.stop();
  await analysis?.stop();
  await reconciler?.stop(); // the run in progress finishes; no other starts
  await gateway?.close(); // dispatcher, broker, then every accepted uplink committed
  await pushes?.close(); // open-platform pushes in flight finish (or stay leased for the next start)
  await database?.close();
  log('info', { signal }, 'stopped');
});

database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
await migrateDatabase(database);
const demo = config.DEMO ? await import('./demo.js') : undefined;
const created: SeededCredential[] = demo ? await demo.seedDemoData(database, config) : [];
const history = await demo?.seedDemoWeek(database, config);
const bootstrap = demo ? undefined : await ensureFirstAdministrator(database, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD });
app = await buildApp({ config, database });
await app.listen({ port: config.PORT, host: config.HOST });
gateway = await startGateway({ database, config, log: app.log });
const started = gateway;
setSessionDropper((imei) => started.transport.disconnect?.(imei)); // reset secret / disable drops the lock's session
app.lifecycle.brokerReady = () => started.stats().external?.connected ?? true;
retention = startHeartbeatRetention(database, app.log, { days: config.HEARTBEAT_RETENTION_DAYS });
telemetryRetention = startAirSwitchRetention(database, app.log, config.TELEMETRY_RETENTION_DAYS);
presence = startPresenceSweep(database, app.log);
analysis = startAnalysisJob(database, app.log, { wakeWindowMs: config.WAKE_WINDOW_MS, snapshots: snapshotPeriods(config.ANALYSIS_SNAPSHOT_MS) });
pushes = startDeliveryWorker({
  database, box: lazySecretBox(config), policy: egressPolicyOf(config), log: app.log,
  pollMs: config.PUSH_POLL_MS, retryWindowMs: config.PUSH_RETRY_WINDOW_S * 1000, pauseAfterMs: config.PUSH_PAUSE_AFTER_S * 1000,
});
reconciler = startReconciler(database, app.payments, config.WXPAY_RECONCILE_MS, app.log);
fleet = await demo?.startDemoFleet(app, database, config, gateway.port);

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
await demo?.seedDemoSubscription(database, config, port);
// The last lines of `npm start` (issue #24): the details, then the URL and the sign-in, framed, in bold on a terminal.
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[22m` : text);
const rule = `  ${'─'.repeat(76)}`;
const lines = [
  '',
  rule,
  `  Database: ${database.kind === 'pglite' ? `PGlite in ${config.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)'}`,
  `  MQTT broker: ${config.MQTT_URL ? 'external (MQTT_URL)' : `embedded, port ${gateway.port}`}; simulated locks: ${fleet ? config.SIM_LOCKS : 0}, air switches: ${fleet ? config.SIM_AIR_SWITCHES * 2 : 0}`,
  ...(history ? [`  Demo history: ${history.rows} rows of the last 7 days seeded in ${(history.ms / 1000).toFixed(1)} s`] : []),
  `  Started in ${(process.uptime()).toFixed(1)} s (${config.DEMO ? 'DEMO=on: demo data and simulated locks' : 'DEMO=off: production'})`,
  '',
  `  物联网中台 is running: ${bold(`http://localhost:${port}${WEB_BASE_PATH}/`)}`,
  ...created.map((c) => `  Demo sign-in (shown once, keep it): ${bold(`${c.username} / ${c.password}`)}`),
  ...(demo && created.length === 0 ? ['  Demo sign-in: admin and operator, with the passwords printed on first start (or ADMIN_PASSWORD / OPERATOR_PASSWORD)'] : []),
  ...(bootstrap?.createdAdministrator ? [`  Administrator ${bootstrap.createdAdministrator} created with ADMIN_PASSWORD`] : []),
  ...(bootstrap?.missingAdministrator ? ['  No administrator yet: set ADMIN_PASSWORD (and ADMIN_USERNAME, default admin) and restart to create one'] : []),
  rule,
  '',
];
// Printed on stdout, not through the logger: the generated passwords must never reach the logs.
process.stdout.write(`${lines.join('\n')}\n`);
