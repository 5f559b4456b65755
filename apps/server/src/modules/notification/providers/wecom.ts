/**
 * WeCom group robot (企业微信群机器人, developer.work.weixin.qq.com "群机器人配置说明"): POST a
 * markdown message to `.../webhook/send?key=KEY`; the key is the robot's only credential (no signature).
 */
import { WECOM_WEBHOOK_URL } from '@iot/contract';
import { postJson } from '../../subscription/egress.js';
import { missing, type Provider, robotAnswer } from './index.js';

export const sendWecom: Provider = async (channel, message, policy) => {
  if (!channel.secret) return missing('key');
  const target = new URL(channel.url ?? WECOM_WEBHOOK_URL);
  target.searchParams.set('key', channel.secret);
  const content = `**${message.title}**\n${message.text}${message.link ? `\n[${message.link}](${message.link})` : ''}`;
  return robotAnswer(await postJson(target.toString(), {}, JSON.stringify({ msgtype: 'markdown', markdown: { content } }), policy));
};
