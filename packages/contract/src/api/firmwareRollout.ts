/**
 * 固件管理's rollouts as the platform reports them: the per-lock OTA job states (ThingsBoard fw_state,
 * Aliyun OTA device states, plus WAITING for a gate), the rollout states and pause reasons, the gates'
 * defaults, and the records of a rollout, a lock's job in it, and a lock's OTA history. The endpoints
 * that return them are firmware.ts's.
 */
import { z } from 'zod';

/** A lock's state in a rollout (ThingsBoard fw_state / Aliyun OTA device states, plus WAITING for a gate). */
export const OTA_JOB_STATES = ['QUEUED', 'WAITING', 'NOTIFIED', 'DOWNLOADING', 'VERIFIED', 'UPDATING', 'UPDATED', 'FAILED', 'CANCELED'] as const;
export type OtaJobState = (typeof OTA_JOB_STATES)[number];
/** States after which a lock's job changes only by an operator's retry. */
export const FINAL_OTA_JOB_STATES = ['UPDATED', 'FAILED', 'CANCELED'] as const satisfies readonly OtaJobState[];
/** Which gate keeps a WAITING lock: its battery, its signal, or the rollout's time window. */
export const OTA_GATES = ['battery', 'rssi', 'window'] as const;
export type OtaGate = (typeof OTA_GATES)[number];
/** CREATED: locks chosen, nothing sent; RUNNING; PAUSED (by an operator or automatically); COMPLETED: every lock final. */
export const ROLLOUT_STATES = ['CREATED', 'RUNNING', 'PAUSED', 'COMPLETED', 'CANCELED'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];
/** Why a rollout is paused: an operator, the failure rate over the threshold, or a failed canary. */
export const ROLLOUT_PAUSE_REASONS = ['manual', 'failureRate', 'canary'] as const;

/** Defaults of a rollout's gates and safety limits. */
export const ROLLOUT_DEFAULTS = {
  minBattery: 30, minRssi: -110, canarySize: 0, failureThresholdPct: 10, minResults: 5, maxRetries: 2, lockTimeoutS: 1800, grayPercent: 100,
} as const;

const countsByState = z.record(z.string(), z.number().int());

export const rolloutRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  packageId: z.number().int().nullable(),
  model: z.string(),
  version: z.string(),
  target: z.record(z.string(), z.unknown()),
  grayPercent: z.number().int(),
  fromVersions: z.array(z.string()),
  minBattery: z.number().int(),
  minRssi: z.number().int(),
  window: z.object({ start: z.string(), end: z.string() }).nullable(),
  timeZone: z.string(),
  canarySize: z.number().int(),
  canaryPassed: z.boolean(),
  failureThresholdPct: z.number().int(),
  minResults: z.number().int(),
  maxRetries: z.number().int(),
  lockTimeoutS: z.number().int(),
  state: z.enum(ROLLOUT_STATES),
  pauseReason: z.string().nullable(),
  /** Locks per OTA_JOB_STATES value. */
  counts: countsByState,
  total: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type RolloutRecord = z.infer<typeof rolloutRecord>;

export const rolloutDetail = rolloutRecord.extend({
  /** Failed locks per reason. */
  failures: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  /** Locks the target named but left out: already on this version or newer, not on a from-version, busy in another rollout. */
  skipped: z.number().int(),
});

export const otaJobRecord = z.object({
  lockId: z.number().int(),
  imei: z.string(),
  state: z.enum(OTA_JOB_STATES),
  waitGate: z.enum(OTA_GATES).nullable(),
  reason: z.string().nullable(),
  /** % of the package the lock has asked for (100 after VERIFIED). */
  progress: z.number().int(),
  attempt: z.number().int(),
  canary: z.boolean(),
  fromVersion: z.string().nullable(),
  currentVersion: z.string().nullable(),
  updatedAt: z.string(),
});
export type OtaJobRecord = z.infer<typeof otaJobRecord>;

/** One rollout's job on one lock (设备信息's OTA history), newest first. */
export const lockOtaHistoryRecord = z.object({
  rolloutId: z.number().int(),
  rolloutName: z.string(),
  /** The package: device type, and its file name (null once the package was deleted). */
  model: z.string(),
  fileName: z.string().nullable(),
  /** The version the lock reported when the rollout was made (null: not recorded), and the package's. */
  fromVersion: z.string().nullable(),
  version: z.string(),
  state: z.enum(OTA_JOB_STATES),
  /** Closed gate of a WAITING lock (battery, rssi, window). */
  waitGate: z.enum(OTA_GATES).nullable(),
  reason: z.string().nullable(),
  /** % of the package downloaded (100 once verified). */
  progress: z.number().int(),
  attempt: z.number().int(),
  /** When the job reached its state, ISO 8601. */
  updatedAt: z.string(),
});
export type LockOtaHistoryRecord = z.infer<typeof lockOtaHistoryRecord>;
