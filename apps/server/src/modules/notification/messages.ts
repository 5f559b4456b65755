/** Texts of notification messages in the channel's language (issue #25: the recipient's language). */
import { randomUUID } from 'node:crypto';
import type { Language } from '@iot/contract';
import type { NotificationMessage } from './providers/index.js';

/** The test message of "send a test message". */
export function testMessage(language: Language, channelName: string, now = new Date()): NotificationMessage {
  const zh = language === 'zh-CN';
  return {
    id: randomUUID(), type: 'test', occurredAt: now.toISOString(),
    title: zh ? '物联网中台测试通知' : 'IoT platform test notification',
    text: zh ? `这是渠道「${channelName}」的测试消息，收到即表示配置正确。` : `This is a test message of the channel "${channelName}": receiving it means the channel works.`,
  };
}
