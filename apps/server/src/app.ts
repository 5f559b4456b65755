/**
 * Builds the Fastify app (fastify/demo style): infrastructure plugins first, then the auth hook, then
 * the modules, then the web app, then the background jobs asked for (jobs/index.ts). `main.ts` only
 * listens and prints; tests build it and `inject`.
 */
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { auditPlugin } from './http/audit-plugin.js';
import { authPlugin } from './http/auth-plugin.js';
import './http/context.js';
import { docsPlugin } from './http/docs-plugin.js';
import { errorsPlugin } from './http/errors-plugin.js';
import { handlersFinished, healthPlugin } from './http/health-plugin.js';
import { idempotencyPlugin } from './http/idempotency-plugin.js';
import { loadSheddingPlugin } from './http/load-shedding.js';
import { type JobName, registerJobs } from './jobs/index.js';
import { loggerOptions, requestLogPlugin } from './http/logging.js';
import { securityPlugin } from './http/security-plugin.js';
import { isWebAppRequest, webPlugin } from './http/web-plugin.js';
import { workersPlugin } from './workers/pool.js';
import { accountRoutes } from './modules/account/routes.js';
import { airSwitchRoutes } from './modules/airSwitch/routes.js';
import { auditLogRoutes } from './modules/auditLog/routes.js';
import { deviceTypeRoutes } from './modules/deviceType/routes.js';
import { analysisRoutes } from './modules/analysis/routes.js';
import { lockDeviceRoutes } from './modules/lockDevice/routes.js';
import { lockInformationRoutes } from './modules/lockInformation/routes.js';
import { doorAccessRoutes } from './modules/doorAccess/routes.js';
import { lockGroupRoutes } from './modules/lockGroup/routes.js';
import { lockAlertRoutes } from './modules/lockAlert/routes.js';
import { lockJournalRoutes } from './modules/lockJournal/routes.js';
import { lockOpenRecordRoutes } from './modules/lockOpenRecord/routes.js';
import { logHeartbeatRoutes } from './modules/logHeartbeat/routes.js';
import { uplinkLogRoutes } from './modules/uplinkLog/routes.js';
import { signInRoutes } from './modules/signIn/routes.js';
import { roleRoutes } from './modules/role/routes.js';
import { commandRoutes } from './modules/command/routes.js';
import { credentialRoutes } from './modules/credential/routes.js';
import { lockConfigRoutes } from './modules/lockConfig/routes.js';
import { tenantRoutes } from './modules/tenant/routes.js';
import { subscriptionRoutes } from './modules/subscription/routes.js';
import { billingRoutes } from './modules/billing/routes.js';
import { firmwareRoutes } from './modules/firmware/routes.js';
import { liveRoutes } from './modules/live/routes.js';
import { accessScheduleRoutes } from './modules/accessSchedule/routes.js';
import { holidayCalendarRoutes } from './modules/holidayCalendar/routes.js';
import { credentialDriftRoutes } from './modules/credential/drift-routes.js';
import { remoteUnlockRoutes } from './modules/remoteUnlock/routes.js';
import { offlineCodeRoutes } from './modules/offlineCode/routes.js';
import { notificationRoutes } from './modules/notification/routes.js';
import { workOrderRoutes } from './modules/workOrder/routes.js';
import { apiKeyRoutes } from './modules/apiKey/routes.js';
import { twoFactorRoutes } from './modules/twoFactor/routes.js';
import { stayRoutes } from './modules/stay/routes.js';
import { backupCodeRoutes } from './modules/backupCode/routes.js';
import { ssoRoutes } from './modules/sso/routes.js';

/** Every module's routes; adding an entity adds one line here. */
const modules = [signInRoutes, tenantRoutes, lockDeviceRoutes, lockInformationRoutes, analysisRoutes, lockGroupRoutes, deviceTypeRoutes, accountRoutes, roleRoutes, auditLogRoutes, commandRoutes, lockConfigRoutes,
  uplinkLogRoutes, logHeartbeatRoutes, lockAlertRoutes, lockOpenRecordRoutes, lockJournalRoutes, credentialRoutes, doorAccessRoutes, subscriptionRoutes, billingRoutes, airSwitchRoutes, firmwareRoutes, liveRoutes,
  accessScheduleRoutes, holidayCalendarRoutes, credentialDriftRoutes, remoteUnlockRoutes, notificationRoutes, apiKeyRoutes, offlineCodeRoutes, twoFactorRoutes,
  workOrderRoutes, stayRoutes, backupCodeRoutes, ssoRoutes];

export interface AppOptions {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /**
   * Background jobs to run (with those they depend on): `all` for a server process, none by default,
   * so a test that builds the app starts no worker it does not ask for.
   */
  jobs?: readonly JobName[] | 'all';
}

/**
 * Builds the app; the caller owns the database and closes it after `app.close()`. Closing stops the
 * HTTP server (in-flight requests finish), waits for contract handlers whose client already left
 * (at most SHUTDOWN_TIMEOUT_MS / 2), then stops the jobs in reverse dependency order.
 */
export async function buildApp({ config, database, logger, jobs = [] }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.LOG_LEVEL),
    // Fastify's two lines per request off: one line instead, at debug for reads (http/logging.ts).
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  });
  app.decorate('config', config);
  app.decorate('database', database);
  await app.register(errorsPlugin);
  await app.register(requestLogPlugin);
  // Headers and CORS first, so that every answer carries them, a 503 of load shedding included.
  await app.register(securityPlugin);
  // Load shedding: 503 UNAVAILABLE (Retry-After) while the event loop lags; health routes and the web app's files opt out.
  await app.register(loadSheddingPlugin, { maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS, retryAfterS: 5, spare: isWebAppRequest });
  // API answers (JSON lists, exports) compressed; the web app's files are compressed at build time (web-plugin.ts).
  await app.register(compress, { global: true });
  await app.register(rateLimit, { global: false });
  // Worker threads for spreadsheet parsing and export files, off the event loop.
  await app.register(workersPlugin);
  await app.register(authPlugin);
  await app.register(docsPlugin); // before any route: it collects them for /openapi.json
  await app.register(healthPlugin);
  await app.register(auditPlugin);
  await app.register(idempotencyPlugin);
  for (const register of modules) await app.register(register);
  await app.register(webPlugin);
  await registerJobs(app, jobs);
  // Registered last, so it runs first of the onClose hooks (right after the server stopped): no job
  // stops, and no database closes, under a handler still running.
  app.addHook('onClose', async () => {
    if (!(await handlersFinished(app, config.SHUTDOWN_TIMEOUT_MS / 2))) app.log.error('handlers still running at shutdown');
  });
  return app;
}
