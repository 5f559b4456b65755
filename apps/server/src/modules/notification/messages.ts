/** Texts of notification messages in the channel's language (the recipient's language). */
import { randomUUID } from 'node:crypto';
import { type Language, LOG_LABELS, type LocalizedText, type NotificationSubjectKind } from '@iot/contract';
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

/** What each kind of object is called in a message. */
const OBJECT_NAMES: Record<NotificationSubjectKind, LocalizedText> = {
  lock: { 'zh-CN': '门锁', 'en-US': 'Lock' }, airSwitch: { 'zh-CN': '空气开关', 'en-US': 'Air switch' },
  rollout: { 'zh-CN': '固件升级', 'en-US': 'Firmware rollout' }, order: { 'zh-CN': '订单', 'en-US': 'Order' },
  customer: { 'zh-CN': '推送客户', 'en-US': 'Push customer' }, stay: { 'zh-CN': '入住', 'en-US': 'Stay' },
};
/** The notification's event type (e.g. lock.alarm) by object. */
const TYPES: Record<NotificationSubjectKind, string> = { lock: 'lock.alarm', airSwitch: 'airSwitch.alarm', rollout: 'ota.state', order: 'order.state', customer: 'push.paused', stay: 'stay.notReady' };
/** Console pages of the objects other than locks (a lock links its 设备信息). */
const LINKS: Partial<Record<NotificationSubjectKind, string>> = { rollout: '/firmwareRule', order: '/orderManagement', customer: '/subscriptionManagement', stay: '/RoomInquiry' };

/**
 * The message of a notification: kind and severity labels, the object (device, rollout or order),
 * the count within the storm window, the hourly cap's summary line, a console link (a lock's 设备信息, 固件管理, 订单管理, 订阅管理,
 * 产品 RoomInquiry); a stay's title names its room and its text counts the doors queued and failed.
 */
export function alarmMessage(language: Language, n: { kind: string; severity: string; deviceKind: NotificationSubjectKind; deviceName: string; deviceCode: string; count: number; capReached?: number | null;
  doors?: { queued: number; failed: number } | null }):
  Omit<NotificationMessage, 'id' | 'occurredAt'> {
  const labels = LOG_LABELS as unknown as Record<string, Record<string, LocalizedText | undefined>>;
  const kind = (labels.kinds?.[n.kind] ?? labels.eventKinds?.[n.kind] ?? labels.airSwitchKinds?.[n.kind])?.[language] ?? n.kind;
  const severity = labels.severities?.[n.severity]?.[language] ?? n.severity;
  const zh = language === 'zh-CN';
  const object = n.deviceName && n.deviceName !== n.deviceCode ? `${n.deviceName} (${n.deviceCode})` : n.deviceCode;
  const repeats = n.count > 1 ? (zh ? `\n窗口内共发生 ${n.count} 次` : `\n${n.count} times within the window`) : '';
  const cap = n.capReached == null ? '' : zh ? `\n本规则每小时最多发送 ${n.capReached} 条通知，已达上限：本小时内之后的通知只记入投递记录和站内信。`
    : `\nThis rule sends at most ${n.capReached} notifications an hour and reached it: further ones this hour go only to the delivery log and the inbox.`;
  const doors = !n.doors ? '' : zh ? `\n${n.doors.queued} 个门锁排队中，${n.doors.failed} 个门锁下发失败` : `\nQueued on ${n.doors.queued} doors, failed on ${n.doors.failed}`;
  const room = n.deviceKind === 'stay' && n.deviceName ? `${zh ? '：' : ': '}${n.deviceName}` : '';
  const link = n.deviceKind === 'lock' ? `/Information?imei=${encodeURIComponent(n.deviceCode)}` : LINKS[n.deviceKind];
  return {
    type: TYPES[n.deviceKind],
    title: zh ? `【${severity}】${kind}${room}` : `[${severity}] ${kind}${room}`,
    text: `${OBJECT_NAMES[n.deviceKind][language]}: ${object}${doors}${repeats}${cap}`,
    ...(link ? { link } : {}),
  };
}
