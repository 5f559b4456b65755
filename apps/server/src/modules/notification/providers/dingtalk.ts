/**
 * DingTalk custom robot (钉钉自定义机器人, open.dingtalk.com "自定义机器人安全设置 · 加签"): POST a
 * markdown message to the robot's webhook with `timestamp` (ms) and `sign` = URL-encoded
 * base64(HMAC-SHA256(secret, timestamp + "\n" + secret)) added to its query string.
 */
import { createHmac } from 'node:crypto';
import { postJson } from '../../subscription/egress.js';
import { missing, type Provider, robotAnswer } from './index.js';

/** The `sign` of DingTalk's 加签 (before URL encoding). Timestamp: ms. */
export function dingtalkSign(secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
}

export const sendDingtalk: Provider = async (channel, message, policy) => {
  if (!channel.url || !channel.secret) return missing('url or secret');
  const timestamp = Date.now();
  const target = new URL(channel.url);
  target.searchParams.set('timestamp', String(timestamp));
  target.searchParams.set('sign', dingtalkSign(channel.secret, timestamp));
  const text = `### ${message.title}\n\n${message.text}${message.link ? `\n\n[${message.link}](${message.link})` : ''}`;
  const body = JSON.stringify({ msgtype: 'markdown', markdown: { title: message.title, text } });
  return robotAnswer(await postJson(target.toString(), {}, body, policy));
};
