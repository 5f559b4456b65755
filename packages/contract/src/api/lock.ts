/** Lock endpoints (spec §7 "Locks"). */
import { z } from 'zod';
import { normaliseVersion } from '../version.js';
import { IMEI_INVALID, int4Id, keyword, queryFlag, text } from './input.js';
import { endpoint } from './endpoint.js';
import { exportFields, exportResponse } from './deviceLog.js';
import { pageOf, pageQuery } from './envelope.js';
import { ATTENTION_KINDS, type AttentionKind, LIVE_STATES, lockFleetEndpoints } from './lockFleet.js';
import { lockImportEndpoints } from './lockImport.js';
import { localized as label } from '../i18n.js';
import { imeiLuhnValid } from '../imei.js';

/** Query-string boolean: "true"/"false"/"1"/"0". */

/** Registry states: `active` (may connect), `disabled` (refused at connect), `decommissioned` (retired, history kept). */
export const LOCK_STATES = ['active', 'disabled', 'decommissioned'] as const;
export type LockState = (typeof LOCK_STATES)[number];

const attentionFilters = Object.fromEntries(ATTENTION_KINDS.map((kind) => [kind, queryFlag.optional()])) as
  Record<AttentionKind, z.ZodOptional<typeof queryFlag>>;

/** The filters of the lock list, its export and "members from the current filter" (all combine with AND). */
export const lockFilterQuery = z.object({
  /** Matches IMEI, name or room (substring, case-insensitive). */
  keyword: keyword().optional(),
  /** true: online or asleep (heartbeat recent); false: offline. */
  online: queryFlag.optional(),
  liveState: z.enum(LIVE_STATES).optional(),
  /** Device type model code (exact). */
  model: keyword(32).optional(),
  /** Location parts (exact). */
  building: keyword(32).optional(),
  floor: keyword(32).optional(),
  room: keyword(32).optional(),
  /** Attention filters (ATTENTION_KINDS); `true` keeps only the locks matching it. */
  ...attentionFilters,
  /** `true`: only locks whose service ends within SERVICE_EXPIRING_DAYS days (not yet ended): the home page's KPI. */
  serviceExpiring: queryFlag.optional(),
  /** Default: every state but decommissioned. */
  state: z.enum([...LOCK_STATES, 'all']).optional(),
  /** Any form of a version (`V1.2.3`, `1.2.3+b`) finds the locks reporting it (stored canonical, version.ts). */
  firmwareVersion: keyword(64).transform((value) => normaliseVersion(value) ?? value).optional(),
  /** Members of this lock group (分组管理) only. */
  groupId: int4Id.optional(),
});

/** The query keys of the lock filters (lockFilterQuery): plain data, so the lock list reads them without zod (apps/web/vite.endpoints.ts). */
export const LOCK_FILTER_KEYS: readonly string[] = Object.keys(lockFilterQuery.shape);

export const lockListQuery = pageQuery.extend(lockFilterQuery.shape);

export const lockRecord = z.object({
  id: z.number().int(),
  imei: z.string(),
  name: z.string(),
  /** Building / floor / room, e.g. "A栋/3层/301". */
  room: z.string(),
  model: z.string(),
  vendor: z.string(),
  firmwareVersion: z.string(),
  /** %, null before the first heartbeat. */
  battery: z.number().int().nullable(),
  /** dBm. */
  rssi: z.number().int().nullable(),
  /** dB. */
  snr: z.number().nullable(),
  heartbeatIntervalS: z.number().int(),
  online: z.boolean(),
  liveState: z.enum(LIVE_STATES),
  /** ISO 8601, null before the first heartbeat. */
  lastHeartbeatAt: z.string().nullable(),
  /** The parts of `room`, as registered. */
  location: z.object({ building: z.string(), floor: z.string(), room: z.string() }),
  state: z.enum(LOCK_STATES),
  iccid: z.string(),
  note: z.string(),
  /** Driven by the demo's built-in simulator. */
  simulated: z.boolean(),
  createdAt: z.string(),
  /** ISO 8601 UTC: end of the paid service period; null: never covered by a package (not restricted). */
  serviceEndAt: z.string().nullable(),
});
export type LockRecord = z.infer<typeof lockRecord>;

const place = text().trim().max(32);

/** A lock as registered on 门锁信息 (IMEI fixed at registration; `model` names a device type of the data centre). */
export const lockFields = z.strictObject({
  name: text().trim().min(1).max(64),
  model: text().trim().min(1).max(32),
  building: place.default(''),
  floor: place.default(''),
  room: place.default(''),
  /** SIM card id: 19 or 20 digits, or empty. */
  iccid: text().trim().regex(/^(\d{19,20})?$/).default(''),
  note: text().trim().max(200).default(''),
  /** The demo's built-in simulator starts it within seconds (DEMO=on only). */
  simulated: z.boolean().default(false),
});

export const lockAddBody = lockFields.extend({
  imei: text().trim().refine(imeiLuhnValid, { error: IMEI_INVALID }),
});
export type LockAddBody = z.input<typeof lockAddBody>;
export const lockUpdateBody = lockFields.extend({ id: int4Id });
const lockIdBody = z.strictObject({ id: int4Id });

/** A device secret, shown once (at registration or reset): the lock's MQTT password. */
export const lockSecretResponse = z.object({ id: z.number().int(), imei: z.string(), secret: z.string() });
export type LockSecret = z.infer<typeof lockSecretResponse>;



export const lockEndpoints = {
  ...lockFleetEndpoints,
  ...lockImportEndpoints,
  list: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/list', access: 'LOOK_INFO', kind: 'token',
    query: lockListQuery, response: pageOf(lockRecord),
  }),
  export: endpoint({
    method: 'GET', path: '/iot/v1/lockDevice/export', access: 'LOOK_INFO', kind: 'token',
    query: lockFilterQuery.extend(exportFields), response: exportResponse,
  }),
  add: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice', access: 'LOCK_REGISTRY', kind: 'token', body: lockAddBody, response: lockSecretResponse,
    action: { label: label('登记门锁', 'Register lock'), target: ['imei'] },
  }),
  update: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/update', access: 'LOCK_REGISTRY', kind: 'token', body: lockUpdateBody, response: z.null(),
    action: { label: label('修改门锁', 'Edit lock'), target: ['id'], entity: 'lock' },
  }),
  enable: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/enable', access: 'LOCK_REGISTRY', kind: 'token',
    body: z.strictObject({ id: int4Id, enabled: z.boolean() }), response: z.null(),
    action: { label: label('启用/停用门锁', 'Enable/disable lock'), target: ['id'], entity: 'lock' },
  }),
  decommission: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/decommission', access: 'LOCK_REGISTRY', kind: 'token', body: lockIdBody, response: z.null(),
    action: { label: label('退役门锁', 'Decommission lock'), target: ['id'], entity: 'lock' }, stepUp: true,
  }),
  releaseImei: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/releaseImei', access: 'LOCK_REGISTRY', kind: 'token', body: lockIdBody, response: z.null(),
    action: { label: label('释放退役门锁的 IMEI', 'Release a decommissioned lock\'s IMEI'), target: ['id'], entity: 'lock' },
  }),
  resetSecret: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/resetSecret', access: 'LOCK_REGISTRY', kind: 'token', body: lockIdBody, response: lockSecretResponse,
    action: { label: label('重置设备密钥', 'Reset device secret'), target: ['id'], entity: 'lock' }, stepUp: true,
  }),
};
