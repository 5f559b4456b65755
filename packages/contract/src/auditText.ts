/**
 * The system log's words for what a change did (系统日志 showed raw JSON): the body fields it
 * recorded and, for an edit, each changed field as `label: before → after`, in either language. The
 * console's 系统日志 and its export both use these, so they say the same.
 */
import { type Language, type LocalizedText, listText, localized as t } from './i18n.js';
import { CREDENTIAL_ACTION_LABELS } from './labels.js';


/** Labels of the fields a system-log row records (request fields and compared object fields). */
export const AUDIT_FIELD_LABELS: Readonly<Record<string, LocalizedText>> = {
  id: t('编号', 'ID'), ids: t('编号', 'IDs'), lockId: t('门锁', 'Lock'), lockIds: t('门锁', 'Locks'), lockUserId: t('门锁用户', 'Lock user'), accountId: t('账号', 'Account'),
  imei: t('IMEI', 'IMEI'), username: t('用户名', 'Username'), name: t('名称', 'Name'), action: t('操作', 'Action'), roleIds: t('角色', 'Roles'),
  enabled: t('启用', 'Enabled'), authorities: t('权限', 'Authorities'), productId: t('套餐', 'Package'), outTradeNo: t('订单号', 'Order'),
  amountFen: t('金额', 'Amount'), reason: t('原因', 'Reason'), nameZh: t('中文名称', 'Chinese name'), nameEn: t('英文名称', 'English name'), tenantIds: t('数据中心', 'Data centres'),
  building: t('楼栋', 'Building'), floor: t('楼层', 'Floor'), room: t('房间', 'Room'), model: t('型号', 'Model'), iccid: t('ICCID', 'ICCID'), note: t('备注', 'Note'),
  simulated: t('模拟设备', 'Simulated'), phone: t('手机号', 'Phone'), validFrom: t('生效时间', 'Valid from'), validTo: t('失效时间', 'Valid to'), status: t('状态', 'Status'),
  description: t('描述', 'Description'), connectivity: t('联网方式', 'Connectivity'), heartbeatIntervalS: t('心跳间隔（秒）', 'Heartbeat interval (s)'),
  maxValidityDays: t('最长有效期（天）', 'Longest validity (days)'), capacityUsers: t('用户容量', 'User slots'), capacityPasswords: t('密码容量', 'Password slots'),
  capacityCards: t('卡片容量', 'Card slots'), capacityFingerprints: t('指纹容量', 'Fingerprint slots'), state: t('状态', 'State'), location: t('位置', 'Location'),
  priceFen: t('价格', 'Price'), lockCount: t('门锁数', 'Locks'), months: t('月数', 'Months'), contact: t('联系方式', 'Contact'),
  kind: t('类型', 'Kind'), checkInAt: t('入住时间', 'Check-in'), checkOutAt: t('退房时间', 'Check-out'), bufferBeforeMinutes: t('提前开门（分钟）', 'Open early (minutes)'),
  bufferAfterMinutes: t('延后关门（分钟）', 'Close late (minutes)'), reference: t('预订单号', 'Booking reference'),
};
/** A stay's kinds in words (the stay's `kind` field). */
const STAY_KIND_LABELS: Readonly<Record<string, LocalizedText>> = {
  hotelNight: t('酒店住宿', 'Hotel night'), shortRental: t('短租', 'Short rental'), longLease: t('长租', 'Long lease'),
};

/** Fields holding fen (shown as ¥0.00) and times (shown with `time`). */
const MONEY = new Set(['amountFen', 'priceFen']);
const TIMES = new Set(['validFrom', 'validTo', 'checkInAt', 'checkOutAt']);
const YES_NO = { true: t('是', 'yes'), false: t('否', 'no') };

/** One recorded value in words: — for none, yes / no, ¥ for fen, times through `time`, lists with the language's separator. */
export function auditValueText(field: string, value: unknown, language: Language, time: (iso: string) => string = (iso) => iso): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return YES_NO[String(value) as 'true' | 'false'][language];
  if (MONEY.has(field) && typeof value === 'number') return `¥${(value / 100).toFixed(2)}`;
  if (TIMES.has(field) && typeof value === 'string') return time(value);
  if (field === 'action' && typeof value === 'string') return CREDENTIAL_ACTION_LABELS[value]?.[language] ?? value;
  if (field === 'kind' && typeof value === 'string') return STAY_KIND_LABELS[value]?.[language] ?? value;
  if (Array.isArray(value)) return value.length === 0 ? '—' : listText(value.map(String), language);
  return String(value);
}

const label = (field: string, language: Language) => AUDIT_FIELD_LABELS[field]?.[language] ?? field;

/**
 * An edit's changed fields, one `label: before → after` each; a list (authorities, roles) says what it
 * gained (+) and lost (−) instead of both whole lists.
 */
export function auditChangesText(changes: Readonly<Record<string, readonly [unknown, unknown]>> | null, language: Language, time?: (iso: string) => string): string[] {
  return Object.entries(changes ?? {}).map(([field, [before, after]]) => {
    if (Array.isArray(before) && Array.isArray(after)) {
      const added = after.filter((item) => !before.includes(item)).map((item) => `+${item}`);
      const removed = before.filter((item) => !after.includes(item)).map((item) => `−${item}`);
      return `${label(field, language)}: ${listText([...added, ...removed], language)}`;
    }
    return `${label(field, language)}: ${auditValueText(field, before, language, time)} → ${auditValueText(field, after, language, time)}`;
  });
}

/** The recorded request fields, `label: value` each, leaving out `skip` (e.g. the target already shown by name). */
export function auditDetailText(detail: Readonly<Record<string, unknown>> | null, language: Language, skip: readonly string[] = [], time?: (iso: string) => string): string[] {
  return Object.entries(detail ?? {}).filter(([field]) => !skip.includes(field))
    .map(([field, value]) => `${label(field, language)}: ${auditValueText(field, value, language, time)}`);
}
