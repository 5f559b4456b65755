/**
 * A device message's data (downlink command parameters, uplink payloads) as labelled fields in the
 * operator's language, never JSON: `操作 新增 · 槽位 3 · 密码 ****** · 有效期至 2026-11-24 10:00`.
 * Nested objects (a pushed configuration) are flattened into their own labelled fields; enum values
 * (actions, unlock methods, alarm kinds, configuration languages) and yes/no are translated; times
 * (ms since epoch) are flagged `time` for the caller to format in its time zone; a field this table
 * does not know keeps its key as its label.
 */
import { ACCESS_REFUSAL_LABELS, CREDENTIAL_RULE_LABELS, OPERATING_MODE_LABELS, USER_TYPE_LABELS, WEEK_DAY_LABELS } from './access/matter.js';
import type { Language, LocalizedText } from './i18n.js';
import { CREDENTIAL_ACTION_LABELS, LOG_LABELS, lockConfigFields, RESULT_CODE_LABELS } from './labels.js';
import type { LockConfig } from './protocol/index.js';
import { localized as t } from './i18n.js';


/** Field key -> label, for every field of the lock protocol's messages' data. */
export const MESSAGE_FIELD_LABELS: Readonly<Record<string, LocalizedText>> = {
  action: t('操作', 'Action'), slot: t('槽位', 'Slot'), userSlot: t('用户槽位', 'User slot'), name: t('姓名', 'Name'),
  password: t('密码', 'Password'), oneTime: t('一次性', 'One-time'), validFrom: t('生效时间', 'Valid from'), validTo: t('失效时间', 'Valid until'),
  cardNumber: t('卡号', 'Card number'), reversed: t('卡号字节反序', 'Reversed byte order'), vendor: t('厂商', 'Vendor'), time: t('平台时间', 'Platform time'),
  battery: t('电量 (%)', 'Battery (%)'), rssi: t('信号强度 (dBm)', 'RSSI (dBm)'), snr: t('信噪比 (dB)', 'SNR (dB)'), firmwareVersion: t('固件版本', 'Firmware'),
  intervalS: t('心跳间隔 (秒)', 'Heartbeat interval (s)'), method: t('开锁方式', 'Method'), success: t('结果', 'Result'), lockTime: t('门锁时间', 'Lock time'),
  kind: t('类型', 'Kind'), cleared: t('已解除', 'Cleared'), detail: t('说明', 'Detail'), door: t('门', 'Door'), locked: t('已上锁', 'Locked'),
  commandMsgId: t('指令编号', 'Command id'), code: t('结果', 'Result'),
  // Matter access: users, schedules, holidays (access/matter.ts).
  userType: t('用户类型', 'User type'), credentialRule: t('开门规则', 'Credential rule'), expiringMinutes: t('首次使用后有效 (分钟)', 'Expires after first use (min)'),
  index: t('时间表序号', 'Schedule index'), daysMask: t('星期', 'Days'), startHour: t('开始 (时)', 'Start hour'), startMinute: t('开始 (分)', 'Start minute'),
  endHour: t('结束 (时)', 'End hour'), endMinute: t('结束 (分)', 'End minute'), localStartTime: t('开始时间', 'Starts'), localEndTime: t('结束时间', 'Ends'),
  operatingMode: t('运行模式', 'Operating mode'), worksAs: t('按星期几运行', 'Works as'), table: t('凭证类型', 'Credential type'),
  operator: t('操作人', 'Operator'), reason: t('原因', 'Reason'), refusal: t('拒绝原因', 'Refusal'),
  // OTA, inventory, lock-side user changes.
  jobId: t('升级任务', 'OTA job'), offset: t('偏移 (字节)', 'Offset (bytes)'), state: t('状态', 'State'),
  lockDataType: t('数据类型', 'Data type'), dataOperationType: t('操作类型', 'Operation'), operationSource: t('来源', 'Source'),
  users: t('用户数', 'Users'), passwords: t('密码数', 'Passwords'), cards: t('卡片数', 'Cards'), fingerprints: t('指纹数', 'Fingerprints'), digest: t('摘要', 'Digest'),
  // Air switches.
  circuits: t('回路', 'Circuits'), circuit: t('回路', 'Circuit'), value: t('数值', 'Value'), thresholds: t('阈值', 'Thresholds'), source: t('来源', 'Source'),
};

const YES_NO = { true: t('是', 'Yes'), false: t('否', 'No') };
const DOOR = { open: t('开', 'Open'), closed: t('关', 'Closed') };
/** A lock's credential tables (protocol credentialOwner). */
const CREDENTIAL_TABLES = { passwords: t('密码', 'Passwords'), cards: t('卡片', 'Cards'), fingerprints: t('指纹', 'Fingerprints') };
/** Fields holding a time in ms since epoch. */
const TIME_FIELDS = new Set(['validFrom', 'validTo', 'time', 'lockTime', 'localStartTime', 'localEndTime']);

export interface MessageField {
  key: string;
  label: string;
  /** The value as text; for a `time` field the ms since epoch, to format. */
  value: string;
  time?: boolean;
}

/** Translated value of a known enum field, else undefined. */
function enumText(key: string, value: unknown, language: Language): string | undefined {
  const pick = (labels: Readonly<Record<string, LocalizedText>>) => labels[String(value)]?.[language];
  if (key === 'action') return pick(CREDENTIAL_ACTION_LABELS);
  if (key === 'method') return pick(LOG_LABELS.methods);
  if (key === 'kind') return pick(LOG_LABELS.kinds);
  if (key === 'success') return pick(LOG_LABELS.outcome);
  if (key === 'door') return pick(DOOR);
  if (key === 'code') return typeof value === 'number' ? RESULT_CODE_LABELS[value]?.[language] : undefined;
  if (key === 'userType') return pick(USER_TYPE_LABELS);
  if (key === 'credentialRule') return pick(CREDENTIAL_RULE_LABELS);
  if (key === 'operatingMode') return pick(OPERATING_MODE_LABELS);
  if (key === 'worksAs') return pick(WEEK_DAY_LABELS);
  if (key === 'refusal') return pick(ACCESS_REFUSAL_LABELS);
  if (key === 'table') return pick(CREDENTIAL_TABLES);
  return typeof value === 'boolean' ? YES_NO[String(value) as 'true' | 'false'][language] : undefined;
}

/** The fields of `data` in `language` (see the module comment); a configuration's fields come from lockConfigFields. */
export function messageDataFields(data: Record<string, unknown>, language: Language): MessageField[] {
  const fields: MessageField[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (value === null || value === undefined) continue;
    if (key === 'config' && typeof value === 'object') {
      for (const field of lockConfigFields(value as LockConfig, language)) fields.push({ key: `config.${field.label}`, label: field.label, value: field.value });
      continue;
    }
    const label = MESSAGE_FIELD_LABELS[key]?.[language] ?? key;
    if (TIME_FIELDS.has(key) && typeof value === 'number') fields.push({ key, label, value: String(value), time: true });
    else fields.push({ key, label, value: enumText(key, value, language) ?? (typeof value === 'object' ? JSON.stringify(value) : String(value)) });
  }
  return fields;
}
