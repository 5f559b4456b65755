/**
 * The in-console inbox (docs/notifications.md "Inbox"): every notification a rule produces
 * lands in the inbox of its recipients, the accounts of the data centre that may see the alarm
 * (administrators and holders of 门锁警告's key LOCK_ALERT_LOG for lock alarms, of AIRSWITCH_RULE for
 * air-switch alarms). Each signed-in account reads and marks its own inbox only, so the routes are
 * `authenticated` (as user info and the live stream's ticket); the server scopes every query to the
 * caller's account and data centre. A landing or a read raises `notification.inbox`, addressed to the
 * accounts concerned (the live stream sends it to them only): the console's bell refreshes.
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery } from './envelope.js';
import { int8Id, queryFlag } from './input.js';
import { ALERT_SEVERITIES } from './lockAlert.js';
import { NOTIFICATION_SUBJECT_KINDS } from './notificationRule.js';

/** At most this many inbox items marked read by ids in one call. */
export const INBOX_READ_MAX = 500;

export const notificationInboxQuery = pageQuery.extend({
  /** true: unread only. */
  unread: queryFlag.optional(),
});

export const notificationInboxRecord = z.object({
  /** The inbox item (mark read with it). */
  id: z.number().int(),
  notificationId: z.number().int(),
  /** Alert kind (lock ALERT_KINDS or an air-switch alarm kind). */
  kind: z.string(),
  severity: z.enum(ALERT_SEVERITIES),
  /** lock, airSwitch, rollout (固件管理), order (订单管理) or customer (订阅管理's customer code); deviceId is its id. */
  deviceKind: z.enum(NOTIFICATION_SUBJECT_KINDS),
  deviceId: z.number().int(),
  deviceName: z.string().nullable(),
  /** The lock's IMEI or the air switch's serial: the console links 设备信息 with it. */
  deviceCode: z.string().nullable(),
  /** The alert row (lock alerts: 门锁警告; air-switch alerts); null when unknown. */
  alertId: z.number().int().nullable(),
  /** The alert's acknowledgement, ISO 8601 UTC; null while unacknowledged (or air switches). */
  acknowledgedAt: z.string().nullable(),
  /** Alarms counted into the notification (storm control). */
  count: z.number().int(),
  /** ISO 8601 UTC: when it landed; when the caller read it (null: unread). */
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationInboxRecord = z.infer<typeof notificationInboxRecord>;

export const notificationInboxPage = pageOf(notificationInboxRecord).extend({
  /** The caller's unread items in this data centre (whatever the page and filter). */
  unread: z.number().int(),
});

/** Mark `ids` (the caller's own items) read, or every item with `all: true`. */
export const notificationInboxReadBody = z.union([
  z.strictObject({ ids: z.array(int8Id).min(1).max(INBOX_READ_MAX) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type NotificationInboxReadBody = z.infer<typeof notificationInboxReadBody>;

export const notificationInboxEndpoints = {
  /** The caller's inbox in this data centre, newest first, with its unread count. */
  list: endpoint({
    method: 'GET', path: '/iot/v1/notification/inbox', access: 'authenticated', kind: 'token', query: notificationInboxQuery, response: notificationInboxPage,
  }),
  /** Marks items read; answers how many changed and the unread count left. A personal read mark: not written to 系统日志. */
  read: endpoint({
    method: 'POST', path: '/iot/v1/notification/inbox/read', access: 'authenticated', kind: 'token', body: notificationInboxReadBody,
    response: z.object({ read: z.number().int(), unread: z.number().int() }),
  }),
};
