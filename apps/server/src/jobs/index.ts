/**
 * Every background job of the server, each a plugin of the app (jobs/plugin.ts): started
 * when the app is ready, stopped in `onClose` in the reverse of the order their declared dependencies
 * give. buildApp registers those named in `AppOptions.jobs` (main.ts: all; API tests: none, or the
 * few they need), with the jobs they depend on.
 *
 *   pushWorker <- gateway (broker, ingest, command and air switch dispatchers, firmware transfer) <- demoFleet
 *   notifications, workOrders, presence, partitions, logRetention (every partitioned log, + sign-in history), analysis, reconciliation, stays, backupCodes: independent
 *
 * So at shutdown the demo fleet stops first, then the independent jobs, then the gateway (every
 * accepted uplink committed), then the push worker (the last uplinks' pushes delivered or leased).
 */
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../crypto/secret-box.js';
import { startAnalysisJob } from '../modules/analysis/job.js';
import { snapshotPeriods } from '../modules/analysis/snapshot.js';
import { startPresenceSweep } from '../modules/lockDevice/presence-job.js';
import { startPartitionJob } from '../modules/partition/job.js';
import { retainedLogs, startLogRetention } from '../modules/partition/retention.js';
import { pruneSignInHistory } from '../modules/oauth/history.js';
import { egressPolicyOf } from '../modules/subscription/egress.js';
import { startDeliveryWorker } from '../modules/subscription/worker.js';
import { startNotificationWorker } from '../modules/notification/worker.js';
import { startWorkOrderWorker } from '../modules/workOrder/worker.js';
import { startReconciler } from '../modules/billing/reconcile.js';
import { startStaysJob } from '../modules/stay/job.js';
import { startBackupCodeJob } from '../modules/backupCode/job.js';
import { presenceFollowers } from '../wiring.js';
import { demoFleetJob } from './demo-job.js';
import { gatewayJob } from './gateway-job.js';
import { inDependencyOrder, type JobDefinition, jobPlugin } from './plugin.js';

/** Every job's name. */
export type JobName = 'pushWorker' | 'notifications' | 'workOrders' | 'gateway' | 'presence' | 'partitions' | 'logRetention' | 'analysis' | 'reconciliation' | 'stays' | 'backupCodes' | 'demoFleet';

const close = (worker: { close(): Promise<void> }) => ({ stop: () => worker.close() });

/** The job table (its order is the start order among jobs that do not depend on each other). */
const JOBS: readonly JobDefinition<JobName>[] = [
  {
    name: 'pushWorker', dependencies: [],
    start: ({ database, config, log }) => close(startDeliveryWorker({
      database, box: lazySecretBox(config), policy: egressPolicyOf(config), log,
      pollMs: config.PUSH_POLL_MS, retryWindowMs: config.PUSH_RETRY_WINDOW_S * 1000, pauseAfterMs: config.PUSH_PAUSE_AFTER_S * 1000,
    })),
  },
  {
    name: 'notifications', dependencies: [],
    start: ({ database, config, log }) => close(startNotificationWorker({ database, box: lazySecretBox(config), policy: egressPolicyOf(config), log })),
  },
  { name: 'workOrders', dependencies: [], start: ({ database, log }) => close(startWorkOrderWorker(database, log)) },
  gatewayJob,
  { name: 'presence', dependencies: [], start: ({ database, log }) => startPresenceSweep(database, log, presenceFollowers) },
  { name: 'partitions', dependencies: [], start: ({ database, log }) => startPartitionJob(database, log) },
  {
    name: 'logRetention', dependencies: [],
    start: ({ database, config, log }) => startLogRetention(database, log, {
      logs: retainedLogs(config), also: [() => pruneSignInHistory(database.system, config.SIGN_IN_HISTORY_DAYS)],
    }),
  },
  {
    name: 'analysis', dependencies: [],
    start: ({ database, config, log }) => startAnalysisJob(database, log, {
      rollupMs: config.ANALYSIS_SNAPSHOT_MS, wakeWindowMs: config.WAKE_WINDOW_MS, snapshots: snapshotPeriods(config.ANALYSIS_SNAPSHOT_MS),
    }),
  },
  { name: 'reconciliation', dependencies: [], start: (app) => startReconciler(app.database, app.payments, app.config.WXPAY_RECONCILE_MS, app.log) },
  { name: 'stays', dependencies: [], start: ({ database, config, log }) => startStaysJob(database, lazySecretBox(config), log) },
  { name: 'backupCodes', dependencies: [], start: ({ database, config, log }) => startBackupCodeJob(database, lazySecretBox(config), log) },
  demoFleetJob,
];

/** Every job's name, in the table's order. */
export const JOB_NAMES: readonly JobName[] = JOBS.map((job) => job.name);

/** The jobs of `selection` and those they depend on, in dependency order. */
export function selectJobs(selection: readonly JobName[] | 'all'): JobDefinition<JobName>[] {
  const wanted = new Set<JobName>(selection === 'all' ? JOB_NAMES : selection);
  for (let grew = true; grew;) {
    grew = false;
    for (const job of JOBS) {
      if (!wanted.has(job.name)) continue;
      for (const name of job.dependencies) if (!wanted.has(name)) { wanted.add(name); grew = true; }
    }
  }
  return inDependencyOrder(JOBS.filter((job) => wanted.has(job.name)));
}

/** Registers the plugins of `selection` (with their dependencies) on `app`. */
export async function registerJobs(app: FastifyInstance, selection: readonly JobName[] | 'all'): Promise<void> {
  for (const job of selectJobs(selection)) await app.register(jobPlugin(job));
}
