/**
 * Notification providers (docs/notifications.md "Adding a provider"): one function per
 * channel kind that turns a message into that service's request, signs it and sends it under the
 * egress policy. A provider never throws: every failure (refused address, timeout, HTTP error, the
 * service's own error code) comes back as `{ sent: false, error }`, and secrets never appear in it.
 */
import type { Language, NotificationChannelKind, NotificationSendResult } from '@iot/contract';
import type { EgressPolicy } from '../../subscription/egress.js';
import { sendDingtalk } from './dingtalk.js';
import { sendEmail } from './email.js';
import { sendFeishu } from './feishu.js';
import { sendWebhook } from './webhook.js';
import { sendWecom } from './wecom.js';

/** The SMTP settings of an e-mail channel (no password). Port: TCP; secure: TLS at once (465), else STARTTLS when offered. */
export interface EmailSettings {
  host: string;
  port: number;
  secure: boolean;
  username: string;
  from: string;
  to: string[];
}

/** A channel opened for sending: its secrets in clear (never logged). */
export interface OpenChannel {
  id: number;
  tenantId: number;
  kind: NotificationChannelKind;
  language: Language;
  url?: string;
  secret?: string;
  password?: string;
  email?: EmailSettings;
}

/** One message, already in the channel's language: a title, a markdown body and where it points. */
export interface NotificationMessage {
  /** Stable across retries: the receiver's deduplication key. */
  id: string;
  /** `test`, or the notification's event (e.g. `lock.alarm`). */
  type: string;
  title: string;
  /** Markdown (robots), plain text lines otherwise. */
  text: string;
  /** Absolute or console-relative link to the object. */
  link?: string;
  /** ISO 8601 UTC. */
  occurredAt: string;
}

export type Provider = (channel: OpenChannel, message: NotificationMessage, policy: EgressPolicy) => Promise<NotificationSendResult>;

/** The provider of each kind. */
export const PROVIDERS: Record<NotificationChannelKind, Provider> = {
  dingtalk: sendDingtalk, wecom: sendWecom, feishu: sendFeishu, webhook: sendWebhook, email: sendEmail,
};

/** Reads a robot's JSON answer: errors are `errcode` (DingTalk, WeCom) or `code` (Feishu) other than 0. */
export function robotAnswer(result: { status: number | null; latencyMs: number; body: string; error: string | null }): NotificationSendResult {
  let error = result.error;
  if (!error) {
    try {
      const answer = JSON.parse(result.body) as { errcode?: number; errmsg?: string; code?: number; msg?: string; StatusCode?: number };
      const code = answer.errcode ?? answer.code ?? answer.StatusCode ?? 0;
      if (code !== 0) error = `code ${code}: ${String(answer.errmsg ?? answer.msg ?? '').slice(0, 200)}`;
    } catch {
      error = 'the answer is not JSON';
    }
  }
  return { sent: error === null, status: result.status, latencyMs: result.latencyMs, error };
}

/** A missing setting, as a provider's failure. */
export const missing = (what: string): NotificationSendResult => ({ sent: false, status: null, latencyMs: 0, error: `${what} is not set` });
