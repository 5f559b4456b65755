/**
 * Notification rules and the delivery log (docs/notifications.md "Rules"): per data
 * centre, what (lock and air-switch alert kinds, a minimum severity), where (every device, or
 * buildings, lock groups, device types) and which channels. A raised alarm matching a rule becomes a
 * notification delivered to each of its channels through a retried delivery table; the same kind on
 * the same device within the rule's storm window becomes one notification with a count (the repeats
 * are logged as suppressed).
 */
import { z } from 'zod';
import { AIR_SWITCH_ALARM_KINDS, ALERT_KINDS } from '../protocol/index.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { int4Id, int8Id, TIME_HHMM, text } from './input.js';
import { ALERT_SEVERITIES } from './lockAlert.js';
import { isoTime, timeOrder } from './time.js';
import { WORK_ORDER_KINDS } from './workOrder.js';
import { localized } from '../i18n.js';

/**
 * Operational events a rule may watch besides alerts, each with the severity its
 * notifications carry: a lock user or credential failed to reach a lock or to leave it (sync state
 * `*_failed`), a command to a lock failed, timed out or expired, a firmware rollout paused (by an
 * operator or by its failure threshold), an open-platform customer's push endpoint paused, a package order paid or refunded (WeChat Pay),
 * a stay's credentials not on every door 1 hour before check-in (`stay.notReady`, docs/stays.md). Only rules
 * naming them get them (an empty `kinds` means every alert kind, as before). A lock gone offline
 * (silent for ONLINE_HEARTBEAT_FACTOR heartbeat intervals) is the alert kind `silentLock`.
 */
export const NOTIFICATION_EVENT_KINDS = {
  credentialSyncFailed: 'major', commandFailed: 'minor', otaPaused: 'major', pushPaused: 'major', paymentReceived: 'warning', orderRefunded: 'minor',
  stayNotReady: 'major',
} as const satisfies Record<string, (typeof ALERT_SEVERITIES)[number]>;
/** What a notification is about: a lock, an air switch, a firmware rollout, a package order, an open-platform customer or a stay (`deviceId` is its id). */
export const NOTIFICATION_SUBJECT_KINDS = ['lock', 'airSwitch', 'rollout', 'order', 'customer', 'stay'] as const;
export type NotificationSubjectKind = (typeof NOTIFICATION_SUBJECT_KINDS)[number];
/**
 * The object of the event kinds that are not about a lock: rules scoped to groups or device types never
 * match them, nor rules scoped to buildings, except a stay, which matches a rule naming its building.
 */
export const NOTIFICATION_OBJECT_OF: Partial<Record<NotificationEventKind, NotificationSubjectKind>> = { otaPaused: 'rollout', pushPaused: 'customer', paymentReceived: 'order', orderRefunded: 'order', stayNotReady: 'stay' };
export type NotificationEventKind = keyof typeof NOTIFICATION_EVENT_KINDS;
/** Whether `kind` is one of NOTIFICATION_EVENT_KINDS (not an alert kind). */
export const isNotificationEventKind = (kind: string): kind is NotificationEventKind => Object.hasOwn(NOTIFICATION_EVENT_KINDS, kind);

/** Kinds a rule may watch: every lock alert kind (raw and derived), every air-switch alarm (trips included), the lock's operational events. */
export const NOTIFICATION_ALERT_KINDS = [...Object.keys(ALERT_KINDS), 'trip', ...Object.keys(AIR_SWITCH_ALARM_KINDS), ...Object.keys(NOTIFICATION_EVENT_KINDS)] as [string, ...string[]];
export const NOTIFICATION_DELIVERY_STATES = ['pending', 'sent', 'failed', 'suppressed'] as const;
export type NotificationDeliveryState = (typeof NOTIFICATION_DELIVERY_STATES)[number];
/** Retry delays after the 1st, 2nd, ... failed attempt, ms; after the last one the delivery is failed. */
export const NOTIFICATION_RETRY_SCHEDULE_MS = [5_000, 30_000, 120_000, 600_000] as const;
/** The largest hourly cap of a rule (notifications per hour). */
export const HOURLY_CAP_MAX = 10_000;
/** Most accounts or roles a rule names in each recipient list. */
export const RECIPIENTS_MAX = 50;
/** Default storm window, s: repeats of a kind on a device within it are counted, not sent. */
export const STORM_WINDOW_DEFAULT_S = 300;

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: TIME_HHMM });
/** `start` to `end` (HH:MM, 24 h); start after end spans midnight (22:00-07:00). */
export const quietHours = z.strictObject({ start: clock, end: clock }).refine((value) => value.start !== value.end, { message: 'quiet hours must not start and end at the same time', path: ['end'] });

const ruleFields = {
  name: text().trim().min(1).max(64),
  enabled: z.boolean().default(true),
  /** Empty: every alert kind (operational events only when named). */
  kinds: z.array(z.enum(NOTIFICATION_ALERT_KINDS)).max(NOTIFICATION_ALERT_KINDS.length).default([]),
  minSeverity: z.enum(ALERT_SEVERITIES).default('warning'),
  /** Where: every scope list empty means every device of the data centre; else a device in any of them. */
  buildings: z.array(text().trim().min(1).max(64)).max(100).default([]),
  groupIds: z.array(int4Id).max(100).default([]),
  /** Device type models (设备类型). */
  deviceTypes: z.array(text().trim().min(1).max(64)).max(100).default([]),
  /** Channels; may be empty when the rule names recipients (accounts or roles) instead. */
  channelIds: z.array(int8Id).max(20).default([]),
  /** s; 0: no storm control. */
  stormWindowS: z.number().int().min(0).max(86_400).default(STORM_WINDOW_DEFAULT_S),
  /** Minutes: an alert not acknowledged within them is notified to escalationChannelIds too; 0: no escalation. */
  escalateAfterMin: z.number().int().min(0).max(10_080).default(0),
  escalationChannelIds: z.array(int8Id).max(20).default([]),
  /**
   * Explicit recipients (accounts of the data centre, holders of its roles): besides the default
   * recipients, the notification lands in their inbox and is e-mailed to their verified address.
   */
  recipientAccountIds: z.array(int4Id).max(RECIPIENTS_MAX).default([]),
  recipientRoleIds: z.array(int4Id).max(RECIPIENTS_MAX).default([]),
  /** Escalation to accounts and role holders (inbox, e-mail to a verified address), as escalationChannelIds. */
  escalationAccountIds: z.array(int4Id).max(RECIPIENTS_MAX).default([]),
  escalationRoleIds: z.array(int4Id).max(RECIPIENTS_MAX).default([]),
  /** Channel deliveries within these local hours (the data centre's time zone) are logged suppressed, critical alerts excepted; null: none. */
  quietHours: quietHours.nullable().default(null),
  /**
   * Notifications of the rule sent to channels per rolling hour; 0: no cap. The first one over it goes out
   * with a summary line (further ones this hour are only logged, reason `hourly cap`, and in the inbox).
   */
  hourlyCap: z.number().int().min(0).max(HOURLY_CAP_MAX).default(0),
  /** A lock alert the rule matches opens a work order of this kind for the lock, unless one of that kind is open on it (docs/work-orders.md); null: none. */
  openWorkOrder: z.enum(WORK_ORDER_KINDS).nullable().default(null),
};
export const notificationRuleBody = z.strictObject({ id: int8Id.optional(), ...ruleFields })
  .refine((rule) => rule.channelIds.length + rule.recipientAccountIds.length + rule.recipientRoleIds.length > 0, { message: 'name a channel or a recipient', path: ['channelIds'] });
export type NotificationRuleBody = z.output<typeof notificationRuleBody>;

export const notificationRuleRecord = z.object({
  id: z.number().int(), name: z.string(), enabled: z.boolean(), kinds: z.array(z.string()), minSeverity: z.enum(ALERT_SEVERITIES),
  buildings: z.array(z.string()), groupIds: z.array(z.number().int()), deviceTypes: z.array(z.string()), channelIds: z.array(z.number().int()),
  stormWindowS: z.number().int(), escalateAfterMin: z.number().int(), escalationChannelIds: z.array(z.number().int()),
  recipientAccountIds: z.array(z.number().int()), recipientRoleIds: z.array(z.number().int()), escalationAccountIds: z.array(z.number().int()), escalationRoleIds: z.array(z.number().int()),
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable(), hourlyCap: z.number().int(), openWorkOrder: z.enum(WORK_ORDER_KINDS).nullable(),
  updatedAt: z.string(),
});
export type NotificationRuleRecord = z.infer<typeof notificationRuleRecord>;

export const notificationDeliveryQuery = pageQuery.extend({
  state: z.enum(NOTIFICATION_DELIVERY_STATES).optional(), channelId: int8Id.optional(), ruleId: int8Id.optional(),
  /** ISO 8601 with offset; deliveries created at or after / at or before. */
  startTime: isoTime.optional(), endTime: isoTime.optional(),
}).refine(...timeOrder);
export const notificationDeliveryRecord = z.object({
  id: z.number().int(), notificationId: z.number().int(), ruleId: z.number().int().nullable(), channelId: z.number().int().nullable(), channelName: z.string().nullable(),
  kind: z.string(), severity: z.string(), deviceKind: z.enum(NOTIFICATION_SUBJECT_KINDS), deviceId: z.number().int(), deviceName: z.string().nullable(),
  /** A recipient's e-mail: the account (its username) it went to; null: the channel's own recipients. */
  accountId: z.number().int().nullable(), accountName: z.string().nullable(),
  state: z.enum(NOTIFICATION_DELIVERY_STATES), attempts: z.number().int(), lastError: z.string().nullable(),
  /** A delivery of the rule's escalation (the alert was not acknowledged in time). */
  escalation: z.boolean(),
  /** The notification's repeats so far (storm control). */
  count: z.number().int(),
  /** ISO 8601 UTC. */
  createdAt: z.string(), sentAt: z.string().nullable(), nextAttemptAt: z.string().nullable(),
});
export type NotificationDeliveryRecord = z.infer<typeof notificationDeliveryRecord>;

const ACCESS = 'SUBSCRIPTIONMANAGEMENT' as const;
const a = (zh: string, en: string) => ({ label: localized(zh, en), target: ['id', 'name'] });

/** Who a rule may name: the data centre's enabled accounts (with whether e-mail reaches them) and its roles. */
export const notificationRecipientChoices = z.object({
  accounts: z.array(z.object({ id: z.number().int(), username: z.string(), email: z.string().nullable(), emailVerified: z.boolean() })),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

export const notificationRuleEndpoints = {
  /** The accounts and roles a rule may name as recipients. */
  recipients: endpoint({ method: 'GET', path: '/iot/v1/notification/rule/recipients', access: ACCESS, kind: 'token', response: notificationRecipientChoices }),
  list: endpoint({ method: 'GET', path: '/iot/v1/notification/rule', access: ACCESS, kind: 'token', response: z.array(notificationRuleRecord) }),
  /** Creates (no id) or updates a rule; a channel of another data centre is a 400 on channelIds. */
  save: endpoint({
    method: 'POST', path: '/iot/v1/notification/rule', access: ACCESS, kind: 'token', action: a('保存通知规则', 'Save notification rule'),
    body: notificationRuleBody, response: notificationRuleRecord,
  }),
  delete: endpoint({
    method: 'POST', path: '/iot/v1/notification/rule/delete', access: ACCESS, kind: 'token', action: a('删除通知规则', 'Delete notification rule'),
    body: z.strictObject({ id: int8Id }), response: z.object({ deleted: z.boolean() }),
  }),
};

export const notificationDeliveryEndpoints = {
  /** The delivery log, newest first. */
  list: endpoint({ method: 'GET', path: '/iot/v1/notification/delivery', access: ACCESS, kind: 'token', query: notificationDeliveryQuery, response: pageOf(notificationDeliveryRecord) }),
};
