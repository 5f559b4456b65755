/**
 * Notification rules and the delivery log (issue #25; docs/notifications.md "Rules"): per data
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
import { int4Id, int8Id, text } from './input.js';
import { ALERT_SEVERITIES } from './lockAlert.js';

/** Kinds a rule may watch: every lock alert kind (raw and derived) and every air-switch alarm, trips included. */
export const NOTIFICATION_ALERT_KINDS = [...Object.keys(ALERT_KINDS), 'trip', ...Object.keys(AIR_SWITCH_ALARM_KINDS)] as [string, ...string[]];
export const NOTIFICATION_DELIVERY_STATES = ['pending', 'sent', 'failed', 'suppressed'] as const;
export type NotificationDeliveryState = (typeof NOTIFICATION_DELIVERY_STATES)[number];
/** Retry delays after the 1st, 2nd, ... failed attempt, ms; after the last one the delivery is failed. */
export const NOTIFICATION_RETRY_SCHEDULE_MS = [5_000, 30_000, 120_000, 600_000] as const;
/** Default storm window, s: repeats of a kind on a device within it are counted, not sent. */
export const STORM_WINDOW_DEFAULT_S = 300;

const ruleFields = {
  name: text().trim().min(1).max(64),
  enabled: z.boolean().default(true),
  /** Empty: every kind. */
  kinds: z.array(z.enum(NOTIFICATION_ALERT_KINDS)).max(NOTIFICATION_ALERT_KINDS.length).default([]),
  minSeverity: z.enum(ALERT_SEVERITIES).default('warning'),
  /** Where: every scope list empty means every device of the data centre; else a device in any of them. */
  buildings: z.array(text().trim().min(1).max(64)).max(100).default([]),
  groupIds: z.array(int4Id).max(100).default([]),
  /** Device type models (设备类型). */
  deviceTypes: z.array(text().trim().min(1).max(64)).max(100).default([]),
  channelIds: z.array(int8Id).min(1).max(20),
  /** s; 0: no storm control. */
  stormWindowS: z.number().int().min(0).max(86_400).default(STORM_WINDOW_DEFAULT_S),
};
export const notificationRuleBody = z.strictObject({ id: int8Id.optional(), ...ruleFields });
export type NotificationRuleBody = z.output<typeof notificationRuleBody>;

export const notificationRuleRecord = z.object({
  id: z.number().int(), name: z.string(), enabled: z.boolean(), kinds: z.array(z.string()), minSeverity: z.enum(ALERT_SEVERITIES),
  buildings: z.array(z.string()), groupIds: z.array(z.number().int()), deviceTypes: z.array(z.string()), channelIds: z.array(z.number().int()),
  stormWindowS: z.number().int(), updatedAt: z.string(),
});
export type NotificationRuleRecord = z.infer<typeof notificationRuleRecord>;

export const notificationDeliveryQuery = pageQuery.extend({
  state: z.enum(NOTIFICATION_DELIVERY_STATES).optional(), channelId: int8Id.optional(), ruleId: int8Id.optional(),
});
export const notificationDeliveryRecord = z.object({
  id: z.number().int(), notificationId: z.number().int(), ruleId: z.number().int().nullable(), channelId: z.number().int().nullable(), channelName: z.string().nullable(),
  kind: z.string(), severity: z.string(), deviceKind: z.enum(['lock', 'airSwitch']), deviceId: z.number().int(), deviceName: z.string().nullable(),
  state: z.enum(NOTIFICATION_DELIVERY_STATES), attempts: z.number().int(), lastError: z.string().nullable(),
  /** The notification's repeats so far (storm control). */
  count: z.number().int(),
  /** ISO 8601 UTC. */
  createdAt: z.string(), sentAt: z.string().nullable(), nextAttemptAt: z.string().nullable(),
});
export type NotificationDeliveryRecord = z.infer<typeof notificationDeliveryRecord>;

const ACCESS = 'SUBSCRIPTIONMANAGEMENT' as const;
const a = (zh: string, en: string) => ({ label: { 'zh-CN': zh, 'en-US': en }, target: ['id', 'name'] });

export const notificationRuleEndpoints = {
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
