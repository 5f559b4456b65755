/**
 * 订阅管理 / open platform (spec §7 /nbdev/*): a tenant's customer codes (integrations),
 * their signing secrets (shown once, rotation with a grace period), their push configuration (an
 * endpoint, event types, optionally some buildings) and the deliveries of events to it: signed with
 * HMAC-SHA256, retried with backoff for PUSH_RETRY_WINDOW, then dead letters; replayable.
 * docs/open-platform.md describes every header and payload for the customer.
 */
import { z } from 'zod';
import { int8Id, keyword, text } from './input.js';
import { exportFields, exportResponse, logFilterFields } from './deviceLog.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { localized as l, localized } from '../i18n.js';

/** Event types a configuration may subscribe to (docs/open-platform.md has each payload). */
export const PUSH_EVENT_TYPES = ['unlock', 'alarm', 'doorState', 'heartbeat', 'presence', 'commandResult', 'credentialSync'] as const;
export type PushEventType = (typeof PUSH_EVENT_TYPES)[number];
/** Event types the platform sends by itself: the handshake when a configuration is saved, and the test button. */
export const PUSH_CONTROL_TYPES = ['verification', 'test'] as const;
export const DELIVERY_STATES = ['pending', 'delivered', 'dead'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Request headers of every push (lower case as sent). */
export const PUSH_HEADERS = {
  customerCode: 'x-iot-customer-code',
  eventId: 'x-iot-event-id',
  eventType: 'x-iot-event-type',
  /** Unix time, s. */
  timestamp: 'x-iot-timestamp',
  /** 32 hex digits, new per attempt. */
  nonce: 'x-iot-nonce',
  /** `v1=<hex HMAC-SHA256(secret, timestamp + "\n" + nonce + "\n" + body)>`, one per valid secret (newest first), comma-separated. */
  signature: 'x-iot-signature',
} as const;

/** Retry delays after the 1st, 2nd, ... failed attempt, ms (then the last one again), each ±20 % jitter. */
export const PUSH_RETRY_SCHEDULE_MS = [10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000] as const;
/** Default rotation grace: the previous secret keeps signing this long, min. */
export const KEY_GRACE_DEFAULT_MIN = 24 * 60;
/** At most this many deliveries replayed in one call. */
export const REPLAY_MAX = 500;

const customerCodeText = text().trim().regex(/^[A-Za-z0-9_-]{4,40}$/, { message: 'expected 4-40 letters, digits, _ or -' });

export const customerCodeRecord = z.object({
  id: z.number().int(),
  customerCode: z.string(),
  name: z.string(),
  contact: z.string(),
  enabled: z.boolean(),
  createdAt: z.string(),
  /** Secrets that sign now: the current one and any still in its grace period. */
  keys: z.array(z.object({ id: z.number().int(), hint: z.string(), createdAt: z.string(), validUntil: z.string().nullable() })),
  /** The push configuration, if saved. */
  config: z.object({ url: z.string(), eventTypes: z.array(z.enum(PUSH_EVENT_TYPES)), buildings: z.array(z.string()), enabled: z.boolean() }).nullable(),
  /** Endpoint health over the last 24 h. successRate: 0..1 or null without attempts; p95LatencyMs: ms. */
  health: z.object({
    attempts: z.number().int(), successRate: z.number().nullable(), p95LatencyMs: z.number().nullable(),
    lastSuccessAt: z.string().nullable(), consecutiveFailures: z.number().int(), failingSince: z.string().nullable(),
    pausedAt: z.string().nullable(), pending: z.number().int(), dead: z.number().int(),
  }),
});
export type CustomerCodeRecord = z.infer<typeof customerCodeRecord>;

export const customerCodeBody = z.strictObject({
  /** Absent: a new customer code (generated unless given). */
  id: int8Id.optional(),
  customerCode: customerCodeText.optional(),
  name: text().trim().min(1).max(64),
  contact: text().trim().max(128).default(''),
  enabled: z.boolean().default(true),
});

export const customerCodeRef = z.strictObject({ customerCode: customerCodeText });

export const generateKeyBody = z.strictObject({
  customerCode: customerCodeText,
  /** How long the previous secret keeps signing, min (0: at once; at most 7 days). */
  graceMinutes: z.number().int().min(0).max(7 * 24 * 60).default(KEY_GRACE_DEFAULT_MIN),
});

export const saveConfigBody = z.strictObject({
  customerCode: customerCodeText,
  /** https://... ; http:// only for localhost. */
  url: text().trim().min(1).max(2048),
  eventTypes: z.array(z.enum(PUSH_EVENT_TYPES)).min(1).max(PUSH_EVENT_TYPES.length),
  /** Only locks in these buildings (empty: every lock of the data centre). */
  buildings: z.array(text().trim().min(1).max(64)).max(100).default([]),
  enabled: z.boolean().default(true),
});

export const deliveryFilterFields = {
  ...logFilterFields,
  customerCode: customerCodeText.optional(),
  eventType: z.enum([...PUSH_EVENT_TYPES, ...PUSH_CONTROL_TYPES]).optional(),
  state: z.enum(DELIVERY_STATES).optional(),
  eventId: z.uuid().optional(),
};
export const deliveryListQuery = pageQuery.extend(deliveryFilterFields);
export const deliveryExportQuery = z.object({ ...deliveryFilterFields, ...exportFields });

export const deliveryRecord = z.object({
  id: z.number().int(),
  customerCode: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  lockId: z.number().int().nullable(),
  imei: z.string().nullable(),
  lockName: z.string().nullable(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  /** HTTP status of the last attempt, null when none answered. */
  lastStatus: z.number().int().nullable(),
  /** ms */
  lastLatencyMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** ISO 8601 UTC. */
  occurredAt: z.string(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** The delivery this one replays. */
  replayOf: z.number().int().nullable(),
  data: z.unknown(),
});
export type DeliveryRecord = z.infer<typeof deliveryRecord>;

const t = (zh: string, en: string) => ({ label: localized(zh, en), target: ['customerCode', 'id'], entity: 'customerCode' as const });
const ACCESS = 'SUBSCRIPTIONMANAGEMENT' as const;

export const subscriptionEndpoints = {
  /** The tenant's customer codes with their keys (hints only), configuration and endpoint health. */
  customerCodes: endpoint({
    method: 'GET', path: '/nbdev/customerCode', access: ACCESS, kind: 'token',
    query: z.object({ keyword: keyword().optional() }), response: z.array(customerCodeRecord),
  }),
  saveCustomerCode: endpoint({
    method: 'POST', path: '/nbdev/customerCode', access: ACCESS, kind: 'token', action: t('保存客户编码', 'Save customer code'),
    body: customerCodeBody, response: customerCodeRecord,
  }),
  /** A new signing secret, returned once; the previous one signs too for `graceMinutes`. */
  generateKey: endpoint({
    method: 'POST', path: '/nbdev/generateKey', access: ACCESS, kind: 'token', action: t('生成签名密钥', 'Generate signing key'),
    body: generateKeyBody, response: z.object({ secret: z.string(), hint: z.string(), previousValidUntil: z.string().nullable() }),
  }),
  getConfig: endpoint({
    method: 'GET', path: '/nbdev/getConfig', access: ACCESS, kind: 'token',
    query: customerCodeRef.strip(), response: customerCodeRecord.shape.config,
  }),
  /** Saves after a signed verification request the endpoint answered with its challenge (400 otherwise). */
  saveConfig: endpoint({
    method: 'POST', path: '/nbdev/saveConfig', access: ACCESS, kind: 'token', action: t('保存推送配置', 'Save push configuration'),
    body: saveConfigBody, response: z.object({ verified: z.boolean(), status: z.number().int().nullable(), latencyMs: z.number().int() }),
  }),
  deliveries: endpoint({
    method: 'GET', path: '/nbdev/delivery/list', access: ACCESS, kind: 'token', query: deliveryListQuery, response: pageOf(deliveryRecord),
  }),
  exportDeliveries: endpoint({
    method: 'GET', path: '/nbdev/delivery/export', access: ACCESS, kind: 'token', query: deliveryExportQuery, response: exportResponse,
  }),
  /** Queues a new delivery of each event (same event id) to its customer code's endpoint now. */
  replay: endpoint({
    method: 'POST', path: '/nbdev/delivery/replay', access: ACCESS, kind: 'token', action: { label: { 'zh-CN': '重新推送', 'en-US': 'Replay deliveries' }, target: ['ids'] },
    body: z.strictObject({ ids: z.array(int8Id).min(1).max(REPLAY_MAX) }), response: z.object({ replayed: z.number().int() }),
  }),
  /** Resumes a paused endpoint: its pending deliveries are due at once. */
  resume: endpoint({
    method: 'POST', path: '/nbdev/resume', access: ACCESS, kind: 'token', action: t('恢复推送', 'Resume endpoint'),
    body: customerCodeRef, response: z.object({ resumed: z.boolean() }),
  }),
  /** Queues a `test` event to the endpoint. */
  sendTest: endpoint({
    method: 'POST', path: '/nbdev/sendTest', access: ACCESS, kind: 'token', action: t('发送测试事件', 'Send test event'),
    body: customerCodeRef, response: z.object({ eventId: z.string() }),
  }),
};

/** The demo receiver (DEMO=on only): whether it answers, and its URL for a customer code. */
export const demoReceiverState = z.object({ running: z.boolean(), received: z.number().int(), url: z.string() });
export const demoReceiverEndpoints = {
  state: endpoint({ method: 'GET', path: '/nbdev/demoReceiver', access: ACCESS, kind: 'token', response: demoReceiverState }),
  set: endpoint({
    method: 'POST', path: '/nbdev/demoReceiver', access: ACCESS, scope: 'platform', kind: 'token', action: { label: { 'zh-CN': '启停演示接收端', 'en-US': 'Start/stop demo receiver' } },
    body: z.strictObject({ running: z.boolean() }), response: demoReceiverState,
  }),
};

/** Labels of the open platform's enum values in both languages (exports and the console). */
export const SUBSCRIPTION_LABELS = {
  eventTypes: {
    unlock: l('开锁记录', 'Unlock'), alarm: l('报警', 'Alarm'), doorState: l('门状态', 'Door state'), heartbeat: l('心跳摘要', 'Heartbeat summary'), presence: l('上线 / 离线', 'Online / offline'),
    commandResult: l('指令结果', 'Command result'), credentialSync: l('凭证同步结果', 'Credential sync'), verification: l('验证请求', 'Verification'), test: l('测试事件', 'Test event'),
  },
  deliveryStates: { pending: l('待重试', 'Pending'), delivered: l('已送达', 'Delivered'), dead: l('死信', 'Dead letter') },
} as const;
