/** Texts of notification messages in the channel's language (issue #25: the recipient's language). */
import { randomUUID } from 'node:crypto';
import { type Language, LOG_LABELS, type LocalizedText } from '@iot/contract';
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

/** The message of an alarm notification: kind and severity labels, the device, the count within the storm window, a link to the lock's page. */
export function alarmMessage(language: Language, n: { kind: string; severity: string; deviceKind: 'lock' | 'airSwitch'; deviceName: string; deviceCode: string; count: number }):
  Omit<NotificationMessage, 'id' | 'occurredAt'> {
  const labels = LOG_LABELS as unknown as Record<string, Record<string, LocalizedText | undefined>>;
  const kind = (n.deviceKind === 'lock' ? labels.kinds : labels.airSwitchKinds)?.[n.kind]?.[language] ?? n.kind;
  const severity = labels.severities?.[n.severity]?.[language] ?? n.severity;
  const zh = language === 'zh-CN';
  const device = `${n.deviceName} (${n.deviceCode})`;
  const repeats = n.count > 1 ? (zh ? `\n窗口内共发生 ${n.count} 次` : `\n${n.count} times within the window`) : '';
  return {
    type: n.deviceKind === 'lock' ? 'lock.alarm' : 'airSwitch.alarm',
    title: zh ? `【${severity}】${kind}` : `[${severity}] ${kind}`,
    text: `${zh ? (n.deviceKind === 'lock' ? '门锁' : '空气开关') : n.deviceKind === 'lock' ? 'Lock' : 'Air switch'}: ${device}${repeats}`,
    ...(n.deviceKind === 'lock' ? { link: `/Information?imei=${encodeURIComponent(n.deviceCode)}` } : {}),
  };
}
