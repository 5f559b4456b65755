/**
 * The domain event map (ARCHITECTURE.md "Events", docs/events.md): every event's name and payload
 * schema, one source of truth for the server's event bus (apps/server/src/events/) and, later, the
 * console's live stream. Payloads are small on purpose: ids, kinds and the data centre (`tenantId`);
 * a receiver that needs more reads the rows. They cross server instances through PostgreSQL
 * NOTIFY (8,000 bytes per notification), so lists of ids stay short (EVENT_ID_LIST_MAX).
 *
 * An event is emitted by the module that owns the change, inside the transaction that makes it, and
 * delivered only once that transaction has committed. `tenantId` is null for events about the
 * platform as a whole (sessions, accounts, which span data centres).
 */
import { z } from 'zod';
import { DEVICE_KINDS } from './constants.js';
import type { Authority } from './authorities.js';
import { SYNC_STATES } from './api/credentialLog.js';
import { OTA_JOB_STATES, ROLLOUT_STATES } from './api/firmwareRollout.js';
import { TRADE_STATES } from './api/wechatPay.js';
import { AIR_SWITCH_ALARM_KINDS, type AirSwitchAlarmKind } from './protocol/airSwitch.js';
import { alertKind, COMMAND_STATES } from './protocol/index.js';

/** Most ids one event lists (a batch of heartbeats is split into several events beyond it). */
export const EVENT_ID_LIST_MAX = 500;

const id = z.number().int().positive();
const tenantId = z.number().int().nonnegative();
const ids = z.array(id).min(1).max(EVENT_ID_LIST_MAX);
/** What happened to a lock's registry row (lock.changed). */
export const LOCK_CHANGES = ['added', 'updated', 'enabled', 'disabled', 'decommissioned', 'imeiReleased'] as const;

/** Event name -> payload schema. */
export const EVENT_SCHEMAS = {
  /** New heartbeats of these locks were stored (the newest per lock; a redelivery raises nothing). */
  'lock.heartbeat': z.object({ tenantId, lockIds: ids }),
  /** Event uplinks (unlocks, door states, alarms, command results, ...) of these locks were stored. */
  'lock.uplink': z.object({ tenantId, lockIds: ids }),
  /** A lock came online (its first heartbeat after silence) or went offline (the presence sweep). */
  'lock.presence': z.object({ tenantId, lockId: id, presence: z.enum(['online', 'offline']) }),
  /** An alert was raised or cleared on a lock (reported by the lock or derived by the platform). */
  'lock.alarm': z.object({ tenantId, lockId: id, alertId: id, kind: alertKind, cleared: z.boolean() }),
  /** The registry changed a lock (disabled and decommissioned locks lose their MQTT session). */
  'lock.changed': z.object({ tenantId, lockId: id, imei: z.string().regex(/^\d{15}$/), change: z.enum(LOCK_CHANGES) }),
  /** A lock's device secret was reset: its MQTT session is dropped; the secret itself never travels. */
  'lock.secretReset': z.object({ tenantId, lockId: id, imei: z.string().regex(/^\d{15}$/) }),
  /** A command was queued for a device: a dispatcher sends it at once if the device is reachable. */
  'command.queued': z.object({ tenantId, deviceKind: z.enum(DEVICE_KINDS), deviceId: id, commandId: id }),
  /** A command changed state (SENT, DELIVERED, a final state, back to QUEUED for a retry). */
  'command.state': z.object({ tenantId, deviceKind: z.enum(DEVICE_KINDS), deviceId: id, commandId: id, state: z.enum(COMMAND_STATES) }),
  /** A lock user or credential changed sync state (添加中 -> 正常, ...), or was removed once the lock confirmed (`deleted`). */
  'credential.sync': z.object({ tenantId, lockId: id, subject: z.enum(['user', 'credential']), rowId: id, state: z.enum([...SYNC_STATES, 'deleted']) }),
  /**
   * A lock's inventory was compared with the platform, or an operator resolved part of its drift (issue
   * #26): what is left, slots the lock holds unmanaged and rows it lacks (0 and 0: in sync).
   */
  'credential.drift': z.object({ tenantId, lockId: id, unmanaged: z.number().int().nonnegative(), missing: z.number().int().nonnegative() }),
  /** New readings of these air switches were stored. */
  'airSwitch.reading': z.object({ tenantId, airSwitchIds: ids }),
  /** An air switch alarm (or trip) on a circuit was raised or cleared: its alert `alertId`. */
  'airSwitch.alarm': z.object({
    tenantId, airSwitchId: id, circuit: id, alertId: id, kind: z.enum(['trip', ...Object.keys(AIR_SWITCH_ALARM_KINDS)] as ['trip', ...AirSwitchAlarmKind[]]), cleared: z.boolean(),
  }),
  /** A firmware rollout, or one lock's job in it, changed state. */
  'ota.state': z.object({ tenantId, rolloutId: id, rolloutState: z.enum(ROLLOUT_STATES).optional(), lockId: id.optional(), jobState: z.enum(OTA_JOB_STATES).optional() }),
  /** A payment order changed trade state (created, paid, closed, refunded). */
  'order.state': z.object({ tenantId, orderId: id, tradeState: z.enum(TRADE_STATES) }),
  /** Open-platform deliveries were queued (the push worker wakes). */
  'push.queued': z.object({ tenantId: tenantId.nullable(), count: z.number().int().positive() }),
  /** An open-platform endpoint was paused after failing for the pause window (its deliveries wait until it is resumed). */
  'push.paused': z.object({ tenantId, customerCodeId: id }),
  /** Sessions were revoked: one sign-in (`family`) or every sign-in of an account. */
  'session.revoked': z.object({ tenantId: z.null(), accountId: id, family: z.uuid().optional() }),
  /** An account changed (password, enabled, roles bound, data centres, name): its cached principals go. */
  'account.changed': z.object({ tenantId: z.null(), accountId: id }),
  /** A role's authorities changed or it was deleted: principals of that data centre are read again. */
  'role.changed': z.object({ tenantId, roleId: id }),
  /** An API key was revoked or rotated: its cached principals go at once. */
  'apiKey.changed': z.object({ tenantId, apiKeyId: id }),
  /**
   * The inbox of these accounts changed: a notification landed (`added`, with its id) or
   * items were marked read (`read`). Addressed (ADDRESSED_EVENTS): only these accounts' streams get it.
   */
  'notification.inbox': z.object({ tenantId, accountIds: ids, change: z.enum(['added', 'read']), notificationId: id.optional() }),
  /** A stay was booked or changed: the stays job looks at its next due time again. */
  'stay.changed': z.object({ tenantId, stayId: id }),
  /**
   * A booked stay's credentials are not on every door one hour before check-in (docs/stays.md):
   * raised once per stay; `queuedDoors` / `failedDoors` count lock x guest pairs not 正常.
   */
  'stay.notReady': z.object({ tenantId, stayId: id, checkInAt: z.string(), queuedDoors: z.number().int().nonnegative(), failedDoors: z.number().int().nonnegative() }),
} as const;

/** Every event name. */
export type EventName = keyof typeof EVENT_SCHEMAS;
/** Event name -> payload type. */
export type EventMap = { [K in EventName]: z.infer<(typeof EVENT_SCHEMAS)[K]> };
/** One event: its name and payload. */
export type DomainEvent = { [K in EventName]: { name: K; payload: EventMap[K] } }[EventName];
/** Every event name, in the map's order. */
export const EVENT_NAMES = Object.keys(EVENT_SCHEMAS) as EventName[];

/** True when `name` is a known event name. */
export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_SCHEMAS, name);
}

const VOUCHER_PAGES = ['VOUCHER_USER_MANAGE', 'VOUCHER_PASSWORD_MANAGE', 'VOUCHER_CARD_MANAGE', 'VOUCHER_FP_MANAGE'] as const satisfies readonly Authority[];
const OPERATION_LOGS = ['OPERATE_USER_LOG', 'OPERATE_PASSWORD_LOG', 'OPERATE_CARD_LOG', 'OPERATE_FP_LOG'] as const satisfies readonly Authority[];

/**
 * Who receives an event on the console's live stream (api/live.ts): the authority keys of the pages
 * that show it (any one suffices; administrators hold every key). An empty list: the event is the
 * platform's own business (wake-ups, secrets, sessions) and never reaches a console; sessions,
 * accounts and roles act on the stream itself (it closes, or its authorities are read again).
 */
export const EVENT_AUDIENCE: { readonly [K in EventName]: readonly Authority[] } = {
  // Home KPIs and the big screen, the lock list and 设备信息, the heartbeat log.
  'lock.heartbeat': ['HOME_PAGE', 'LOOK_INFO', 'HEARTBEAT_LOG'],
  // Unlock counts on the home page, 设备信息's journal, the uplink and unlock logs.
  'lock.uplink': ['HOME_PAGE', 'LOOK_INFO', 'COMMAND_UP_LOG', 'LOCK_OPEN_RECORD_LOG'],
  'lock.presence': ['HOME_PAGE', 'LOOK_INFO', 'LOOK_CONFIG'],
  'lock.alarm': ['HOME_PAGE', 'LOOK_INFO', 'LOCK_ALERT_LOG'],
  'lock.changed': ['HOME_PAGE', 'LOOK_INFO', 'LOOK_CONFIG', 'FIRMWARE_RULE', ...VOUCHER_PAGES],
  'lock.secretReset': [],
  // 门锁配置's queue, 设备信息's commands, the downlink log, the air switches' commands.
  'command.queued': ['LOOK_INFO', 'LOOK_CONFIG', 'COMMAND_DOWN_LOG', 'AIRSWITCH_RULE'],
  'command.state': ['LOOK_INFO', 'LOOK_CONFIG', 'COMMAND_DOWN_LOG', 'AIRSWITCH_RULE', ...VOUCHER_PAGES, ...OPERATION_LOGS],
  'credential.sync': ['LOOK_INFO', ...VOUCHER_PAGES, ...OPERATION_LOGS],
  // 设备信息's drift card.
  'credential.drift': ['LOOK_INFO', ...VOUCHER_PAGES],
  'airSwitch.reading': ['HOME_PAGE', 'AIRSWITCH_RULE'],
  'airSwitch.alarm': ['HOME_PAGE', 'AIRSWITCH_RULE', 'LOCK_ALERT_LOG'],
  'ota.state': ['LOOK_INFO', 'FIRMWARE_RULE'],
  'order.state': ['RENEW', 'ORDER_MANAGEMENT'],
  'push.queued': [],
  // 订阅管理's customer list shows the endpoint paused.
  'push.paused': ['SUBSCRIPTIONMANAGEMENT'],
  'session.revoked': [],
  'account.changed': [],
  'role.changed': ['ROLE_PERMISSIONS', 'BINDING_ROLES'],
  'apiKey.changed': [],
  // Addressed to accounts, not to pages: see ADDRESSED_EVENTS.
  'notification.inbox': [],
  // 产品 RoomInquiry's 入住管理 view.
  'stay.changed': ['LOOK_INFO', 'VOUCHER_USER_MANAGE'],
  'stay.notReady': ['LOOK_INFO', 'VOUCHER_USER_MANAGE'],
};

/**
 * Events addressed to accounts (payload `accountIds`): a live stream receives one when its account is
 * listed, whatever its authorities (EVENT_AUDIENCE does not apply); never another account's.
 */
export const ADDRESSED_EVENTS: ReadonlySet<EventName> = new Set<EventName>(['notification.inbox']);

/** True when addressed event `payload` names account `accountId`. */
export function addressedTo(payload: object, accountId: number): boolean {
  const accountIds = (payload as { accountIds?: readonly number[] }).accountIds;
  return Array.isArray(accountIds) && accountIds.includes(accountId);
}
