/**
 * Feishu / Lark custom bot (飞书自定义机器人, open.feishu.cn "签名校验"): the body carries `timestamp`
 * (s) and `sign` = base64(HMAC-SHA256(key = timestamp + "\n" + secret, message = empty)); the message
 * is an interactive card with a markdown element.
 */
import { createHmac } from 'node:crypto';
import { postJson } from '../../subscription/egress.js';
import { missing, type Provider, robotAnswer } from './index.js';

/** The `sign` of Feishu's signature check. Timestamp: s. */
export function feishuSign(secret: string, timestamp: number): string {
  return createHmac('sha256', `${timestamp}\n${secret}`).update('').digest('base64');
}

export const sendFeishu: Provider = async (channel, message, policy) => {
  if (!channel.url || !channel.secret) return missing('url or secret');
  const timestamp = Math.floor(Date.now() / 1000);
  const content = `${message.text}${message.link ? `\n[${message.link}](${message.link})` : ''}`;
  const body = JSON.stringify({
    timestamp: String(timestamp), sign: feishuSign(channel.secret, timestamp), msg_type: 'interactive',
    card: { header: { title: { tag: 'plain_text', content: message.title } }, elements: [{ tag: 'markdown', content }] },
  });
  return robotAnswer(await postJson(channel.url, {}, body, policy));
};
