/**
 * 固件管理 firmwareRule: firmware packages (vendor-signed; SHA-256 computed by the
 * server; one canonical semantic version per device type, ordered by precedence) and rollouts (upgrade rules) that carry a package to a
 * set of locks with battery, signal and time-window gates, a canary and an automatic pause. Per-lock
 * states OTA_JOB_STATES; the transfer is docs/protocol.md "Firmware over the air".
 */
import { z } from 'zod';
import { imeiSchema, OTA_MAX_PACKAGE_BYTES } from '../protocol/index.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { normaliseVersion, VERSION_MAX_LENGTH, VERSION_SHAPE } from '../version.js';
import { int4Id, keyword, text, TIME_HHMM, VERSION_SEMVER } from './input.js';
import { localized as label } from '../i18n.js';
import { lockOtaHistoryRecord, OTA_JOB_STATES, otaJobRecord, ROLLOUT_DEFAULTS, ROLLOUT_STATES, rolloutDetail, rolloutRecord } from './firmwareRollout.js';

/** A version field of a request: any accepted form in, the canonical form out (400 `version.semver` otherwise). */
export const versionInput = z.string().trim().max(VERSION_MAX_LENGTH, { error: VERSION_SEMVER }).regex(VERSION_SHAPE, { error: VERSION_SEMVER }).transform((value, ctx) => {
  const canonical = normaliseVersion(value);
  if (canonical) return canonical;
  ctx.issues.push({ code: 'custom', message: VERSION_SEMVER, input: value });
  return z.NEVER;
});

/**
 * The text fields of a package upload (multipart form fields beside the `file` part, a signed ZGFW
 * package: contract firmware/package.ts). Model and version must be what the package's manifest says.
 */
export const firmwareUploadFields = z.strictObject({
  /** Device type (model code) the package is built for. */
  model: text().trim().min(1).max(32),
  /** Any accepted form (`V1.4.0`, `1.4.0+build.2`), stored canonical (version.ts). */
  version: versionInput,
  notesZh: text().max(2000).default(''),
  notesEn: text().max(2000).default(''),
});
export type FirmwareUploadFields = z.infer<typeof firmwareUploadFields>;

export const firmwarePackageRecord = z.object({
  id: z.number().int(),
  model: z.string(),
  firmwareFamily: z.string(),
  version: z.string(),
  fileName: z.string(),
  /** bytes */
  sizeBytes: z.number().int(),
  /** SHA-256 of the package file (what locks download), 64 hex digits, computed while the upload streamed to storage. */
  sha256: z.string(),
  /** The vendor key that signed it (its manifest's keyId, verified at upload). */
  keyId: z.string(),
  notes: z.object({ 'zh-CN': z.string(), 'en-US': z.string() }),
  createdBy: z.string(),
  createdAt: z.string(),
  /** Rollouts of this package not yet finished (CREATED, RUNNING, PAUSED): it cannot be deleted while any. */
  activeRollouts: z.number().int(),
});
export type FirmwarePackageRecord = z.infer<typeof firmwarePackageRecord>;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: TIME_HHMM });
const imeiList = z.array(imeiSchema).min(1).max(10_000);

/** Which locks a rollout reaches: every lock of the package's device type, a group, or listed IMEIs. */
export const rolloutTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('type') }),
  z.strictObject({ kind: z.literal('group'), groupId: int4Id }),
  z.strictObject({ kind: z.literal('imeis'), imeis: imeiList }),
]);
export type RolloutTarget = z.infer<typeof rolloutTarget>;

/** An upgrade rule as entered (defaults ROLLOUT_DEFAULTS). */
export const rolloutInput = z.strictObject({
  packageId: int4Id,
  name: text().trim().max(64).default(''),
  target: rolloutTarget,
  /** Share of the target's locks, %: a stable pseudo-random subset (by IMEI hash). */
  grayPercent: z.number().int().min(1).max(100).default(ROLLOUT_DEFAULTS.grayPercent),
  /** Only locks now on one of these versions (empty: any version older than the package). */
  fromVersions: z.array(versionInput).max(20).default([]),
  /** Gates, re-checked at every heartbeat: battery %, RSSI dBm. */
  minBattery: z.number().int().min(0).max(100).default(ROLLOUT_DEFAULTS.minBattery),
  minRssi: z.number().int().min(-150).max(0).default(ROLLOUT_DEFAULTS.minRssi),
  /** Local time window in `timeZone` (IANA); both or neither; start > end spans midnight. */
  window: z.strictObject({ start: hhmm, end: hhmm }).nullable().default(null),
  timeZone: text().min(1).max(64).default('Asia/Shanghai'),
  /** The first N locks go alone; the others wait until they all have a result. */
  canarySize: z.number().int().min(0).max(10_000).default(ROLLOUT_DEFAULTS.canarySize),
  /** Pause when failed / results exceeds this, %, once at least `minResults` locks have a result. */
  failureThresholdPct: z.number().int().min(0).max(100).default(ROLLOUT_DEFAULTS.failureThresholdPct),
  minResults: z.number().int().min(1).max(10_000).default(ROLLOUT_DEFAULTS.minResults),
  /** Further attempts of a lock after a failure. */
  maxRetries: z.number().int().min(0).max(10).default(ROLLOUT_DEFAULTS.maxRetries),
  /** A lock without progress this long fails (timeout), s. */
  lockTimeoutS: z.number().int().min(10).max(7 * 86_400).default(ROLLOUT_DEFAULTS.lockTimeoutS),
});
export type RolloutInput = z.input<typeof rolloutInput>;


const byId = z.strictObject({ id: int4Id });
const rolloutAction = (path: string, zh: string, en: string) => endpoint({
  method: 'POST', path: `/iot/v1/firmware/rollout/${path}`, access: 'FIRMWARE_ROLLOUT_RUN', kind: 'token', body: byId, response: z.null(),
  action: { label: label(zh, en), target: ['id'], entity: 'rollout' },
});

export const firmwareEndpoints = {
  /** Spec §7 name: the data centre's packages, newest version first within each device type. */
  packages: endpoint({
    method: 'GET', path: '/iot/v1/firmwareVersionList', access: 'FIRMWARE_RULE', kind: 'token',
    query: pageQuery.extend({ model: keyword(32).optional(), keyword: keyword().optional() }), response: pageOf(firmwarePackageRecord),
  }),
  /**
   * multipart/form-data: fields firmwareUploadFields, then one `file` part: a vendor-signed ZGFW package
   * of at most OTA_MAX_PACKAGE_BYTES. Refused (400 on body.file, zh/en) when unsigned, wrongly signed,
   * malformed, or its manifest does not match the model, version or bytes.
   */
  upload: endpoint({
    method: 'POST', path: '/iot/v1/firmware/upload', access: 'FIRMWARE_PACKAGE_EDIT', kind: 'multipart',
    upload: { fields: firmwareUploadFields, maxBytes: OTA_MAX_PACKAGE_BYTES },
    response: z.object({ id: z.number().int(), sha256: z.string(), sizeBytes: z.number().int(), version: z.string(), keyId: z.string() }),
    // Multipart: no parsed body names the package, so the route writes its row with the stored package (id, model and version).
    action: { label: label('上传固件', 'Upload firmware'), target: ['id'], entity: 'firmwarePackage' },
  }),
  deletePackage: endpoint({
    method: 'POST', path: '/iot/v1/firmware/delete', access: 'FIRMWARE_PACKAGE_EDIT', kind: 'token', body: byId, response: z.null(),
    action: { label: label('删除固件', 'Delete firmware'), target: ['id'], entity: 'firmwarePackage' },
  }),
  rollouts: endpoint({
    method: 'GET', path: '/iot/v1/firmware/rollout/list', access: 'FIRMWARE_RULE', kind: 'token',
    query: pageQuery.extend({ state: z.enum(ROLLOUT_STATES).optional() }), response: pageOf(rolloutRecord),
  }),
  rollout: endpoint({
    method: 'GET', path: '/iot/v1/firmware/rollout/detail', access: 'FIRMWARE_RULE', kind: 'token', query: byId.strip(), response: rolloutDetail,
  }),
  rolloutLocks: endpoint({
    method: 'GET', path: '/iot/v1/firmware/rollout/locks', access: 'FIRMWARE_RULE', kind: 'token',
    query: pageQuery.extend({ id: int4Id, state: z.enum(OTA_JOB_STATES).optional(), imei: keyword(15).optional() }), response: pageOf(otaJobRecord),
  }),
  addRollout: endpoint({
    method: 'POST', path: '/iot/v1/firmware/rollout/add', access: 'FIRMWARE_ROLLOUT_RUN', kind: 'token', body: rolloutInput,
    response: z.object({ id: z.number().int(), locks: z.number().int(), skipped: z.number().int() }),
    action: { label: label('新建升级任务', 'Create rollout'), target: ['name', 'packageId'] },
  }),
  start: rolloutAction('start', '开始升级', 'Start rollout'),
  pause: rolloutAction('pause', '暂停升级', 'Pause rollout'),
  resume: rolloutAction('resume', '恢复升级', 'Resume rollout'),
  cancel: rolloutAction('cancel', '取消升级', 'Cancel rollout'),
  retryFailed: rolloutAction('retryFailed', '重试失败门锁', 'Retry failed locks'),
  /** A lock's OTA history, newest first (设备信息 / lockInfo). */
  lockHistory: endpoint({
    method: 'GET', path: '/iot/v1/firmware/lockHistory', access: ['FIRMWARE_RULE', 'LOOK_INFO'], kind: 'token',
    query: z.object({ imei: imeiSchema }), response: z.array(lockOtaHistoryRecord),
  }),
};
