/**
 * Builds the Fastify app (fastify/demo style): infrastructure plugins first, then the auth hook, then
 * the modules, then the web app. `server.ts`/`main.ts` only listen; tests build it and `inject`.
 */
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { auditPlugin } from './http/audit-plugin.js';
import { authPlugin } from './http/auth-plugin.js';
import './http/context.js';
import { docsPlugin } from './http/docs-plugin.js';
import { errorsPlugin } from './http/errors-plugin.js';
import { healthPlugin } from './http/health-plugin.js';
import { idempotencyPlugin } from './http/idempotency-plugin.js';
import { loggerOptions, requestLogPlugin } from './http/logging.js';
import { securityPlugin } from './http/security-plugin.js';
import { webPlugin } from './http/web-plugin.js';
import { workersPlugin } from './workers/pool.js';
import { accountRoutes } from './modules/account/routes.js';
import { airSwitchRoutes } from './modules/airSwitch/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { deviceTypeRoutes } from './modules/deviceType/routes.js';
import { analysisRoutes } from './modules/analysis/routes.js';
import { lockDeviceRoutes } from './modules/lockDevice/routes.js';
import { lockGroupRoutes } from './modules/lockGroup/routes.js';
import { lockAlertRoutes } from './modules/lockAlert/routes.js';
import { lockJournalRoutes } from './modules/lockJournal/routes.js';
import { lockOpenRecordRoutes } from './modules/lockOpenRecord/routes.js';
import { logHeartbeatRoutes } from './modules/logHeartbeat/routes.js';
import { logUpCommandRoutes } from './modules/logUpCommand/routes.js';
import { oauthRoutes } from './modules/oauth/routes.js';
import { roleRoutes } from './modules/role/routes.js';
import { commandRoutes } from './modules/command/routes.js';
import { credentialRoutes } from './modules/credential/routes.js';
import { lockConfigRoutes } from './modules/lockConfig/routes.js';
import { tenantRoutes } from './modules/tenant/routes.js';
import { subscriptionRoutes } from './modules/subscription/routes.js';
import { enqueueFinishedCommands } from './modules/subscription/outbox.js';
import { wxRoutes } from './modules/wx/routes.js';
import { firmwareRoutes } from './modules/firmware/routes.js';
import { onCommandFinished } from './modules/command/lifecycle.js';
import { settleFinishedCommands } from './modules/credential/sync.js';

/** Every module's routes; adding an entity adds one line here. */
const modules = [oauthRoutes, tenantRoutes, lockDeviceRoutes, analysisRoutes, lockGroupRoutes, deviceTypeRoutes, accountRoutes, roleRoutes, auditRoutes, commandRoutes, lockConfigRoutes,
  logUpCommandRoutes, logHeartbeatRoutes, lockAlertRoutes, lockOpenRecordRoutes, lockJournalRoutes, credentialRoutes, subscriptionRoutes, wxRoutes, airSwitchRoutes, firmwareRoutes];

/**
 * Hooks between modules, wired here and nowhere else (idempotent: the lifecycle keeps a set).
 * Credential sync states follow their commands' final states, in the transaction that writes them;
 * so do the open platform's commandResult / credentialSync pushes (issue #16).
 */
function wireModuleHooks(): void {
  onCommandFinished(settleFinishedCommands);
  onCommandFinished(enqueueFinishedCommands);
}

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the app; the caller owns the database and closes it after `app.close()`. */
export async function buildApp({ config, database, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.LOG_LEVEL),
    // Fastify's two lines per request off: one line instead, at debug for reads (http/logging.ts).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  });
  wireModuleHooks();
  app.decorate('config', config);
  app.decorate('database', database);
  await app.register(errorsPlugin);
  await app.register(requestLogPlugin);
  // Headers and CORS first, so that every answer carries them, a 503 of load shedding included.
  await app.register(securityPlugin);
  // Load shedding: 503 UNAVAILABLE (Retry-After) while the event loop lags; health routes opt out.
  await app.register(underPressure, { maxEventLoopDelay: config.MAX_EVENT_LOOP_DELAY_MS, retryAfter: 5 });
  // API answers (JSON lists, exports) compressed; the web app's files are compressed at build time (web-plugin.ts).
  await app.register(compress, { global: true });
  await app.register(rateLimit, { global: false });
  // Worker threads for spreadsheet parsing and export files, off the event loop (issue #31).
  await app.register(workersPlugin);
  await app.register(authPlugin);
  await app.register(docsPlugin); // before any route: it collects them for /openapi.json
  await app.register(healthPlugin);
  await app.register(auditPlugin);
  await app.register(idempotencyPlugin);
  for (const register of modules) await app.register(register);
  await app.register(webPlugin);
  return app;
}
