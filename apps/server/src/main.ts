/**
 * The server process (`npm start`, or `node apps/server/dist/main.js` once built): open the database
 * and prepare it (boot.ts: migrate; demo data with DEMO=on, the first administrator with DEMO=off),
 * build the app with every background job (jobs/index.ts), listen, print the URL.
 *
 * Lifecycle (close-with-grace): SIGTERM/SIGINT start a graceful shutdown with a deadline
 * (SHUTDOWN_TIMEOUT_MS): /readyz turns 503, then `app.close()` stops HTTP (in-flight requests finish),
 * waits for handlers whose client left, and stops the jobs in the reverse of their dependency order
 * (the demo fleet, the independent jobs, the gateway with every accepted uplink committed, the push
 * worker); then the database closes. Past the deadline the process exits 1. An uncaught exception or
 * unhandled rejection is logged and fatal (the same shutdown, exit code 1).
 */
import { WEB_BASE_PATH } from '@iot/contract';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { prepareDatabase } from './boot.js';
import { loadConfig } from './config.js';
import { type Database, openDatabase } from './db/client.js';

const config = loadConfig();
let database: Database | undefined;
let app: FastifyInstance | undefined;

const log = (level: 'info' | 'error' | 'fatal', object: object, message: string) => {
  if (app) app.log[level](object, message);
  else process.stderr.write(`${JSON.stringify({ level, ...object, msg: message })}\n`);
};

closeWithGrace({ delay: config.SHUTDOWN_TIMEOUT_MS, logger: { error: (message: unknown) => log('error', {}, String(message)) } }, async ({ signal, err }) => {
  if (err) log('fatal', { err }, 'fatal error: shutting down');
  log('info', { signal }, 'stopping');
  if (app) app.lifecycle.stopping = true;
  await app?.close(); // no new requests (503), in-flight ones finish, then every job stops in order
  await database?.close();
  log('info', { signal }, 'stopped');
});

database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
const { created, history, bootstrap } = await prepareDatabase(database, config);
app = await buildApp({ config, database, jobs: 'all' });
await app.listen({ port: config.PORT, host: config.HOST });
// Start-up (migrations, seeding, the jobs' first runs) held the event loop: announce the server once
// load shedding has let go of it, or the first requests would be answered 503 (at most 10 s).
for (const end = Date.now() + 10_000; app.isUnderPressure() && Date.now() < end;) await new Promise((resolve) => setTimeout(resolve, 100));
app.workers.warm(); // the spreadsheet worker thread, so that the first upload does not wait for it
setImmediate(() => { app.swagger(); app.swagger({ yaml: true }); }); // the OpenAPI document is built once, not by the first /docs request

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
const fleet = config.DEMO && config.SIM_LOCKS + config.SIM_AIR_SWITCHES > 0;
// The last lines of `npm start`: the details, then the URL and the sign-in, framed, in bold on a terminal.
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[22m` : text);
const rule = `  ${'─'.repeat(76)}`;
const lines = [
  '',
  rule,
  `  Database: ${database.kind === 'pglite' ? `PGlite in ${config.DATA_DIR}` : 'PostgreSQL (DATABASE_URL)'}`,
  `  MQTT broker: ${config.MQTT_URL ? 'external (MQTT_URL)' : `embedded, port ${app.gateway?.port}`}; simulated locks: ${fleet ? config.SIM_LOCKS : 0} NB-IoT + ${fleet && config.SIM_LOCKS > 0 ? config.SIM_ONLINE_LOCKS : 0} always online, air switches: ${fleet ? config.SIM_AIR_SWITCHES * 2 : 0}`,
  ...(history ? [`  Demo history: ${history.rows} rows of the last 7 days seeded in ${(history.ms / 1000).toFixed(1)} s`] : []),
  `  Started in ${(process.uptime()).toFixed(1)} s (${config.DEMO ? 'DEMO=on: demo data and simulated locks' : 'DEMO=off: production'})`,
  '',
  `  物联网中台 is running: ${bold(`http://localhost:${port}${WEB_BASE_PATH}/`)}`,
  ...created.map((c) => `  Demo sign-in (shown once, keep it): ${bold(`${c.username} / ${c.password}`)}`),
  ...(config.DEMO && created.length === 0 ? ['  Demo sign-in: admin and operator, with the passwords printed on first start (or ADMIN_PASSWORD / OPERATOR_PASSWORD)'] : []),
  ...(bootstrap?.createdAdministrator ? [`  Administrator ${bootstrap.createdAdministrator} created with ADMIN_PASSWORD`] : []),
  ...(bootstrap?.missingAdministrator ? ['  No administrator yet: set ADMIN_PASSWORD (and ADMIN_USERNAME, default admin) and restart to create one'] : []),
  rule,
  '',
];
// Printed on stdout, not through the logger: the generated passwords must never reach the logs.
process.stdout.write(`${lines.join('\n')}\n`);
