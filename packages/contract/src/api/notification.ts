/**
 * Notifications to the platform's own operators (docs/notifications.md): channels per data
 * centre (DingTalk, WeCom and Feishu group robots, a signed webhook in the open platform's push
 * format, e-mail over SMTP), each with "send a test message". Secrets (robot URLs with their tokens,
 * signing secrets, the SMTP password) are sealed on the server and come back masked only.
 * Under 订阅管理's authority key (SUBSCRIPTIONMANAGEMENT), beside the open platform's customers.
 */
import { z } from 'zod';
import { LANGUAGES, localized } from '../i18n.js';
import { endpoint } from './endpoint.js';
import { int8Id, text } from './input.js';
import { notificationInboxEndpoints } from './notificationInbox.js';
import { notificationDeliveryEndpoints, notificationRuleEndpoints } from './notificationRule.js';

/** Channel kinds; SMS is a provider to add (docs/notifications.md "Adding a provider"). */
export const NOTIFICATION_CHANNEL_KINDS = ['dingtalk', 'wecom', 'feishu', 'webhook', 'email'] as const;
export type NotificationChannelKind = (typeof NOTIFICATION_CHANNEL_KINDS)[number];

/** Default WeCom group-robot endpoint; the robot's `key` is the channel's secret. */
export const WECOM_WEBHOOK_URL = 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send';

const name = text().trim().min(1).max(64);
/** https://... ; http:// only for localhost (the open platform's egress rules). */
const url = text().trim().min(1).max(2048);
const secret = text().trim().min(8).max(256);
const language = z.enum(LANGUAGES).default('zh-CN');
const email = z.email().max(254);
const common = { name, enabled: z.boolean().default(true), language };

/** The fields of each kind; `withSecret` false: secrets may be left out (update: keep the stored ones). */
function kindBodies<const S extends boolean>(withSecret: S) {
  const must = <T extends z.ZodType>(schema: T) => (withSecret ? schema : schema.optional()) as S extends true ? T : z.ZodOptional<T>;
  return [
    /** Robot webhook (`...robot/send?access_token=`) and its 加签 secret (`SEC...`): `timestamp` + HMAC-SHA256 `sign`. */
    { kind: z.literal('dingtalk'), url: must(url), secret: must(secret) },
    /** The robot's key (`...webhook/send?key=`); `url` defaults to WeCom's endpoint. */
    { kind: z.literal('wecom'), url: url.optional(), secret: must(secret) },
    /** Bot webhook (`.../bot/v2/hook/...`) and its signature secret (签名校验). */
    { kind: z.literal('feishu'), url: must(url), secret: must(secret) },
    /** An HTTPS endpoint receiving the open platform's signed push format with this secret. */
    { kind: z.literal('webhook'), url: must(url), secret: must(secret) },
    /** SMTP: host, port (465: TLS at once; others STARTTLS when offered), optional login, sender and recipients. */
    {
      kind: z.literal('email'), host: text().trim().min(1).max(253), port: z.number().int().min(1).max(65_535).default(465),
      secure: z.boolean().default(true), username: text().trim().max(254).default(''), password: text().max(256).optional(),
      from: email, to: z.array(email).min(1).max(20),
    },
  ] as const;
}

const createShapes = kindBodies(true);
const updateShapes = kindBodies(false);
/** Body of creating a channel: the kind decides the other fields. */
export const notificationChannelCreateBody = z.discriminatedUnion('kind', [
  z.strictObject({ ...common, ...createShapes[0] }), z.strictObject({ ...common, ...createShapes[1] }), z.strictObject({ ...common, ...createShapes[2] }),
  z.strictObject({ ...common, ...createShapes[3] }), z.strictObject({ ...common, ...createShapes[4] }),
]);
export type NotificationChannelCreateBody = z.output<typeof notificationChannelCreateBody>;
/** Body of updating a channel (its kind stays); a secret left out is kept. */
export const notificationChannelUpdateBody = z.discriminatedUnion('kind', [
  z.strictObject({ id: int8Id, ...common, ...updateShapes[0] }), z.strictObject({ id: int8Id, ...common, ...updateShapes[1] }),
  z.strictObject({ id: int8Id, ...common, ...updateShapes[2] }), z.strictObject({ id: int8Id, ...common, ...updateShapes[3] }),
  z.strictObject({ id: int8Id, ...common, ...updateShapes[4] }),
]);
export type NotificationChannelUpdateBody = z.output<typeof notificationChannelUpdateBody>;

export const notificationChannelRecord = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_CHANNEL_KINDS),
  name: z.string(),
  enabled: z.boolean(),
  language: z.enum(LANGUAGES),
  /** The endpoint with its query values masked (`access_token=••••1a2b`); null for e-mail. */
  url: z.string().nullable(),
  /** `••••` + the secret's (or SMTP password's) last 4 characters; null without one. */
  secretHint: z.string().nullable(),
  /** E-mail settings (no password); null for the other kinds. */
  email: z.object({ host: z.string(), port: z.number().int(), secure: z.boolean(), username: z.string(), from: z.string(), to: z.array(z.string()) }).nullable(),
  /** The last test message: when (ISO 8601 UTC), whether it was accepted, and why not. */
  lastTest: z.object({ at: z.string(), sent: z.boolean(), error: z.string().nullable() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type NotificationChannelRecord = z.infer<typeof notificationChannelRecord>;

/** What sending one message to a channel gave: accepted or not, the HTTP status (null for SMTP or no answer), ms, why not. */
export const notificationSendResult = z.object({
  sent: z.boolean(), status: z.number().int().nullable(), latencyMs: z.number().int(), error: z.string().nullable(),
});
export type NotificationSendResult = z.infer<typeof notificationSendResult>;

const ACCESS = 'SUBSCRIPTIONMANAGEMENT' as const;
const idBody = z.strictObject({ id: int8Id });
const a = (zh: string, en: string) => ({ label: localized(zh, en), target: ['id', 'name'] });

export const notificationEndpoints = {
  channel: {
    /** The data centre's channels, newest first, secrets masked. */
    list: endpoint({ method: 'GET', path: '/iot/v1/notification/channel', access: ACCESS, kind: 'token', response: z.array(notificationChannelRecord) }),
    /** Creates a channel; a URL or SMTP host the egress policy refuses (private address, plain http) is a 400 on that field. */
    create: endpoint({
      method: 'POST', path: '/iot/v1/notification/channel', access: ACCESS, kind: 'token', action: a('新增通知渠道', 'Add notification channel'),
      body: notificationChannelCreateBody, response: notificationChannelRecord,
    }),
    update: endpoint({
      method: 'POST', path: '/iot/v1/notification/channel/update', access: ACCESS, kind: 'token', action: a('修改通知渠道', 'Edit notification channel'),
      body: notificationChannelUpdateBody, response: notificationChannelRecord,
    }),
    delete: endpoint({
      method: 'POST', path: '/iot/v1/notification/channel/delete', access: ACCESS, kind: 'token', action: a('删除通知渠道', 'Delete notification channel'),
      body: idBody, response: z.object({ deleted: z.boolean() }),
    }),
    /** Sends a signed test message now and answers what the receiver said. */
    test: endpoint({
      method: 'POST', path: '/iot/v1/notification/channel/test', access: ACCESS, kind: 'token', action: a('发送测试通知', 'Send test notification'),
      body: idBody, response: notificationSendResult,
    }),
  },
  rule: notificationRuleEndpoints,
  delivery: notificationDeliveryEndpoints,
  /** The caller's own inbox (every signed-in account). */
  inbox: notificationInboxEndpoints,
};
