/**
 * Downlink commands (下发日志) and lock configuration (门锁配置), spec §7 "Logs" and "Locks".
 * Every downlink is a queued command first (protocol COMMAND_STATES); secret fields (protocol
 * SECRET_DOWNLINK_FIELDS) are always shown masked (`******`).
 */
import { z } from 'zod';
import { int4Id, int8Id, keyword } from './input.js';
import { COMMAND_STATES, DOWNLINK_TYPES, lockConfig } from '../protocol/index.js';
import { endpoint } from './endpoint.js';
import { deviceTarget } from './lockGroup.js';
import { pageOf, pageQuery, sortFields } from './envelope.js';
import { isoTime, timeOrder } from './time.js';

/** A command id (bigserial; query string or JSON). */
export const commandId = int8Id;
/** A lock id (serial). */
export const lockId = int4Id;

/** Command-log columns the server sorts by. */
export const COMMAND_SORT_FIELDS = ['createdAt', 'completedAt'] as const;
export const commandListQuery = pageQuery.extend({
  ...sortFields(COMMAND_SORT_FIELDS),
  /** Matches IMEI, lock name or room (substring, case-insensitive). */
  keyword: keyword().optional(),
  type: z.enum(DOWNLINK_TYPES).optional(),
  state: z.enum(COMMAND_STATES).optional(),
  /** ISO 8601 with offset; commands created at or after. */
  startTime: isoTime.optional(),
  /** ISO 8601 with offset; commands created at or before. */
  endTime: isoTime.optional(),
}).refine(...timeOrder);

export const commandRecord = z.object({
  id: z.number().int(),
  /** Sent as the downlink's msgId; the lock answers with it. */
  msgId: z.string(),
  lockId: z.number().int(),
  imei: z.string(),
  lockName: z.string(),
  /** Building / floor / room. */
  room: z.string(),
  type: z.enum(DOWNLINK_TYPES),
  /** The command's data with secret fields masked. */
  data: z.record(z.string(), z.unknown()),
  state: z.enum(COMMAND_STATES),
  /** Times sent so far / at most. */
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  createdBy: z.string(),
  /** ISO 8601 UTC; the times below are null until they happen. */
  createdAt: z.string(),
  expiresAt: z.string(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /** commandResult code (0 success), detail and the slot the lock assigned. */
  resultCode: z.number().int().nullable(),
  resultDetail: z.string().nullable(),
  resultSlot: z.number().int().nullable(),
});
export type CommandRecord = z.infer<typeof commandRecord>;

export const lockQueueQuery = z.object({ lockId });
export const lockQueue = z.object({
  lockId: z.number().int(),
  imei: z.string(),
  /** Mains/Wi-Fi lock reachable at any time; false: NB-IoT lock reachable only just after its uplinks. */
  alwaysOnline: z.boolean(),
  /** ISO 8601 UTC of the lock's last uplink, or null. */
  lastUplinkAt: z.string().nullable(),
  /** Within the wake window after the last uplink (server WAKE_WINDOW_MS, default protocol.WAKE_WINDOW_MS), or always online. */
  awake: z.boolean(),
  /** When the lock is next expected to wake: its last heartbeat + heartbeat interval (ISO 8601 UTC), or null before any uplink. */
  nextWakeAt: z.string().nullable(),
  /** Commands not final (oldest first), then up to 10 recent final ones (newest first). */
  commands: z.array(commandRecord),
});
export type LockQueue = z.infer<typeof lockQueue>;

export const commandIdBody = z.strictObject({ id: commandId });
export const commandIdQuery = z.object({ id: commandId });

/** What the vendor (ZIGUANG) route sent: the protocol message envelope, secrets masked. */
export const vendorDownPara = z.object({
  id: z.number().int(),
  imei: z.string(),
  state: z.enum(COMMAND_STATES),
  /** False while the command was never sent (the message shown is what would be sent). */
  sent: z.boolean(),
  message: z.object({ msgId: z.string(), type: z.enum(DOWNLINK_TYPES), ts: z.number().int().nullable(), data: z.record(z.string(), z.unknown()) }),
});
/** What the ISP / NB platform route carried: the transport envelope (MQTT topic, QoS, payload bytes). */
export const ispDownPara = z.object({
  id: z.number().int(),
  imei: z.string(),
  state: z.enum(COMMAND_STATES),
  sent: z.boolean(),
  topic: z.string(),
  qos: z.literal(1),
  retain: z.literal(false),
  /** Size of the payload on the wire, bytes (masking keeps the size). */
  bytes: z.number().int(),
  attempts: z.number().int(),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** The payload text, secrets masked. */
  payload: z.string(),
});

export const lockConfigListQuery = pageQuery.extend({
  /** Matches IMEI, name or room (substring, case-insensitive). */
  keyword: keyword().optional(),
});
export const lockConfigRecord = z.object({
  id: z.number().int(),
  imei: z.string(),
  name: z.string(),
  room: z.string(),
  model: z.string(),
  alwaysOnline: z.boolean(),
  /** s */
  heartbeatIntervalS: z.number().int(),
  online: z.boolean(),
  lastUplinkAt: z.string().nullable(),
  /** As lockQueue.nextWakeAt. */
  nextWakeAt: z.string().nullable(),
  /** Last configuration the lock reported (configReport), or null. */
  config: lockConfig.nullable(),
  /** Commands of the lock not final yet. */
  pending: z.number().int(),
});
export type LockConfigRecord = z.infer<typeof lockConfigRecord>;

export const lockConfigBody = z.strictObject({
  lockId,
  config: z.strictObject(lockConfig.shape).refine((config) => Object.values(config).some((value) => value !== undefined), { message: 'config must set at least one field' }),
});
export const lockIdBody = z.strictObject({ lockId });

/** Most locks one batch configuration push may target. */
export const CONFIG_BATCH_MAX = 1000;
/** The same configuration pushed to every lock of a device target (a group, an IMEI list, a filter). */
export const lockConfigBatchBody = z.strictObject({ target: deviceTarget, config: lockConfigBody.shape.config });
/**
 * Commands queued, the locks that refused (error code, e.g. QUEUE_FULL, or VALIDATION_FAILED when the
 * configuration exceeds the lock's device type, with the reason in both languages) and listed
 * IMEIs not found.
 */
export const lockConfigBatchResult = z.object({
  queued: z.number().int(),
  refused: z.array(z.object({ lockId: z.number().int(), imei: z.string(), code: z.string(), message: z.object({ 'zh-CN': z.string(), 'en-US': z.string() }) })),
  unknownImeis: z.array(z.string()),
});
export type LockConfigBatchResult = z.infer<typeof lockConfigBatchResult>;

export const commandEndpoints = {
  list: endpoint({
    method: 'GET', path: '/iot/v1/logDownCommand/list', access: 'COMMAND_DOWN_LOG', kind: 'token', query: commandListQuery, response: pageOf(commandRecord),
  }),
  /** One lock's queue; the lock configuration page shows it too. */
  simpleList: endpoint({
    method: 'GET', path: '/iot/v1/logDownCommand/simpleList', access: ['COMMAND_DOWN_LOG', 'LOOK_CONFIG'], kind: 'token', query: lockQueueQuery, response: lockQueue,
  }),
  /** QUEUED -> CANCELED; 409 COMMAND_NOT_QUEUED otherwise. */
  cancel: endpoint({
    method: 'POST', path: '/iot/v1/logDownCommand/cancel', access: 'COMMAND_DOWN_LOG', kind: 'token', action: { label: { 'zh-CN': '取消指令', 'en-US': 'Cancel command' }, target: ['id'], entity: 'command' },  body: commandIdBody, response: commandRecord,
  }),
  ispDownPara: endpoint({
    method: 'GET', path: '/iot/v1/isp/logDownPara', access: 'COMMAND_DOWN_LOG', kind: 'token', query: commandIdQuery, response: ispDownPara,
  }),
  zgDownPara: endpoint({
    method: 'GET', path: '/iot/v1/zg/logDownPara', access: 'COMMAND_DOWN_LOG', kind: 'token', query: commandIdQuery, response: vendorDownPara,
  }),
  lockConfigList: endpoint({
    method: 'GET', path: '/iot/v1/lockConfigList', access: 'LOOK_CONFIG', kind: 'token', query: lockConfigListQuery, response: pageOf(lockConfigRecord),
  }),
  /** Queues a configPush; returns the command. */
  lockConfig: endpoint({
    method: 'POST', path: '/iot/v1/lockConfig', access: 'LOOK_CONFIG', kind: 'token', action: { label: { 'zh-CN': '下发门锁配置', 'en-US': 'Push lock configuration' }, target: ['lockId'] },  body: lockConfigBody, response: commandRecord,
  }),
  /** Queues a configPush for every lock of the target (at most CONFIG_BATCH_MAX), each lock on its own: one refusing does not stop the others. */
  lockConfigBatch: endpoint({
    method: 'POST', path: '/iot/v1/lockConfig/batch', access: 'LOOK_CONFIG', kind: 'token', action: { label: { 'zh-CN': '批量下发门锁配置', 'en-US': 'Push lock configuration to many locks' } }, body: lockConfigBatchBody, response: lockConfigBatchResult,
  }),
  /** Queues a clockSync (the time is taken when the command is sent); returns the command. */
  clockSync: endpoint({
    method: 'POST', path: '/iot/v1/lockDevice/clockSync', access: 'LOOK_CONFIG', kind: 'token', action: { label: { 'zh-CN': '门锁校时', 'en-US': 'Sync lock clock' }, target: ['lockId'] },  body: lockIdBody, response: commandRecord,
  }),
};
