/**
 * Webhook channel: the open platform's signed push format (docs/open-platform.md): headers
 * X-Iot-Customer-Code (`notification-<channel id>`), X-Iot-Event-Id, X-Iot-Event-Type (`notification`),
 * X-Iot-Timestamp, X-Iot-Nonce, X-Iot-Signature (`v1=` HMAC-SHA256 over timestamp, nonce and body);
 * the body is a push whose `data` is the message. Any 2xx is accepted.
 */
import { signedHeaders } from '../../subscription/signing.js';
import { postJson } from '../../subscription/egress.js';
import { pushBody } from '../../subscription/payload.js';
import { missing, type Provider } from './index.js';

export const sendWebhook: Provider = async (channel, message, policy) => {
  if (!channel.url || !channel.secret) return missing('url or secret');
  const code = `notification-${channel.id}`;
  const body = pushBody({
    eventId: message.id, eventType: 'notification', code, tenantId: channel.tenantId, lockId: null, imei: null, occurredAt: message.occurredAt,
    data: { type: message.type, title: message.title, text: message.text, link: message.link ?? null, language: channel.language },
  });
  const result = await postJson(channel.url, signedHeaders({ customerCode: code, eventId: message.id, eventType: 'notification' }, body, [channel.secret]), body, policy);
  return { sent: result.error === null, status: result.status, latencyMs: result.latencyMs, error: result.error };
};
