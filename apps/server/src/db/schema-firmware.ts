/**
 * Firmware and over-the-air upgrades, written only by modules/firmware. Tenant-scoped with
 * row-level security (migration *_firmware_rls.sql). The gateway's OTA transfer uses the owner
 * connection (a device names its lock, not a tenant), as the command dispatcher does.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { locks, tenants } from './schema.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * An uploaded vendor-signed package (ZGFW): one canonical semantic version per device type
 * (model code) and data centre (`version` is normalised: no `v`, no build metadata, so equal precedence
 * is one row).
 */
export const firmwarePackages = pgTable('firmware_packages', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  /** Device type's model code (as locks.model, no foreign key: device_types is owned by modules/deviceType). */
  model: text('model').notNull(),
  version: text('version').notNull(),
  fileName: text('file_name').notNull(),
  /** bytes */
  sizeBytes: integer('size_bytes').notNull(),
  /** hex, of the whole package file (what locks download). */
  sha256: text('sha256').notNull(),
  /** The vendor key that signed it (manifest keyId), verified at upload. */
  keyId: text('key_id').notNull().default(''),
  /** Key of the bytes in the package store (modules/firmware/storage.ts). */
  storageKey: text('storage_key').notNull(),
  notesZh: text('notes_zh').notNull().default(''),
  notesEn: text('notes_en').notNull().default(''),
  createdBy: text('created_by').notNull().default(''),
  createdAt: at('created_at').notNull().defaultNow(),
}, (t) => [uniqueIndex('firmware_packages_tenant_model_version').on(t.tenantId, t.model, t.version)]);

/** An upgrade rule: a package, its locks (firmware_jobs), gates and safety limits (contract rolloutInput). */
export const firmwareRollouts = pgTable('firmware_rollouts', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull().references(() => tenants.id),
  /** Null once the package is deleted (only a finished rollout's package can be). */
  packageId: integer('package_id').references(() => firmwarePackages.id, { onDelete: 'set null' }),
  name: text('name').notNull().default(''),
  model: text('model').notNull(),
  version: text('version').notNull(),
  target: jsonb('target').notNull(),
  grayPercent: integer('gray_percent').notNull(),
  fromVersions: text('from_versions').array().notNull().default(sql`'{}'::text[]`),
  /** % */
  minBattery: integer('min_battery').notNull(),
  /** dBm */
  minRssi: integer('min_rssi').notNull(),
  /** HH:mm in time_zone, or null for any time. */
  windowStart: text('window_start'),
  windowEnd: text('window_end'),
  timeZone: text('time_zone').notNull(),
  canarySize: integer('canary_size').notNull(),
  canaryPassed: boolean('canary_passed').notNull().default(false),
  failureThresholdPct: integer('failure_threshold_pct').notNull(),
  minResults: integer('min_results').notNull(),
  maxRetries: integer('max_retries').notNull(),
  /** s */
  lockTimeoutS: integer('lock_timeout_s').notNull(),
  /** contract ROLLOUT_STATES */
  state: text('state').notNull().default('CREATED'),
  pauseReason: text('pause_reason'),
  /** Failed locks when the rollout last paused: the automatic pause needs a failure beyond them (a resume is not undone at once). */
  acceptedFailures: integer('accepted_failures').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  createdBy: text('created_by').notNull().default(''),
  createdAt: at('created_at').notNull().defaultNow(),
  startedAt: at('started_at'),
  finishedAt: at('finished_at'),
}, (t) => [index('firmware_rollouts_state').on(t.state), index('firmware_rollouts_package').on(t.packageId)]);

/**
 * One lock in one rollout (contract OTA_JOB_STATES). `requestSeq` is the seq of the lock's last
 * otaChunkRequest and `requestOffset` its offset; `servedSeq` the request a chunk was sent for: a chunk
 * is sent only by the instance whose conditional update moves servedSeq up to requestSeq.
 */
export const firmwareJobs = pgTable('firmware_jobs', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').notNull(),
  rolloutId: integer('rollout_id').notNull().references(() => firmwareRollouts.id, { onDelete: 'cascade' }),
  lockId: integer('lock_id').notNull().references(() => locks.id, { onDelete: 'cascade' }),
  state: text('state').notNull().default('QUEUED'),
  /** contract OTA_GATES while WAITING. */
  waitGate: text('wait_gate'),
  /** Failure reason (contract OTA_FAILURE_REASONS); kept while a retry is queued. */
  reason: text('reason'),
  /** % */
  progress: integer('progress').notNull().default(0),
  attempt: integer('attempt').notNull().default(1),
  canary: boolean('canary').notNull().default(false),
  fromVersion: text('from_version'),
  requestSeq: integer('request_seq'),
  /** bytes */
  requestOffset: integer('request_offset'),
  servedSeq: integer('served_seq'),
  /**
   * Seq of the lock's uplink behind the job's last step, which only a heartbeat with a higher seq follows:
   * the heartbeat a notice answered (NOTIFIED: a later one may be notified again), the VERIFIED / UPDATING
   * report (UPDATING: a later heartbeat tells how the flash went).
   */
  statusSeq: integer('status_seq'),
  stateChangedAt: at('state_changed_at').notNull().defaultNow(),
  /** Last sign of progress (notify, chunk request, status): the per-lock timeout counts from it. */
  progressAt: at('progress_at').notNull().defaultNow(),
}, (t) => [
  uniqueIndex('firmware_jobs_rollout_lock').on(t.rolloutId, t.lockId),
  index('firmware_jobs_rollout_state').on(t.rolloutId, t.state),
  // At most one unfinished job per lock across rollouts; also the heartbeat path's lookup.
  uniqueIndex('firmware_jobs_active_lock').on(t.lockId).where(sql`${t.state} not in ('UPDATED', 'FAILED', 'CANCELED')`),
]);
