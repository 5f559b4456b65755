/**
 * The access-control vocabulary of the Matter DoorLock cluster (cluster id 0x0101, Matter 1.3 §5.2,
 * cluster revision 7+; the issue calls the cluster "rev. 9" as of Matter 1.4), used by the contract,
 * the device protocol and the console (ARCHITECTURE.md "Devices and access"; docs/access-schedules.md).
 * Matter names its enum values in PascalCase (UnrestrictedUser); the contract uses the same words in
 * camelCase (unrestrictedUser) and lists them in Matter's numeric order, so `index` = the Matter value.
 * Each value has a zh and an en label here; the console's locale files carry the same words.
 */
import type { LocalizedText } from '../i18n.js';
import { localized as t } from '../i18n.js';


/** Matter DoorLock cluster id. */
export const DOOR_LOCK_CLUSTER_ID = 0x0101;

/** UserTypeEnum (Matter 5.2.6.18), in Matter's order (index = Matter value 0..9). */
export const USER_TYPES = [
  'unrestrictedUser', 'yearDayScheduleUser', 'weekDayScheduleUser', 'programmingUser', 'nonAccessUser',
  'forcedUser', 'disposableUser', 'expiringUser', 'scheduleRestrictedUser', 'remoteOnlyUser',
] as const;
export type UserType = (typeof USER_TYPES)[number];

export const USER_TYPE_LABELS: Record<UserType, LocalizedText> = {
  unrestrictedUser: t('不限时用户', 'Unrestricted'),
  yearDayScheduleUser: t('日期时间表用户', 'Year-day schedule'),
  weekDayScheduleUser: t('每周时间表用户', 'Week-day schedule'),
  programmingUser: t('管理用户', 'Programming'),
  nonAccessUser: t('无开门权限用户', 'Non-access'),
  forcedUser: t('胁迫用户', 'Forced (duress)'),
  disposableUser: t('一次性用户', 'Disposable'),
  expiringUser: t('首次使用后限时用户', 'Expiring'),
  scheduleRestrictedUser: t('受时间表限制用户', 'Schedule-restricted'),
  remoteOnlyUser: t('仅远程用户', 'Remote only'),
};

/** User types whose access follows their week-day / year-day schedules (Matter 5.2.6.18.2, .3, .9). */
export const SCHEDULED_USER_TYPES: readonly UserType[] = ['yearDayScheduleUser', 'weekDayScheduleUser', 'scheduleRestrictedUser'];

/**
 * Matter 5.2.4.4 / 5.2.4.9: "The lock may automatically adjust the UserType when a schedule is created".
 * Platform and simulated lock apply the same rule: a schedule set for an unrestricted user makes it a
 * scheduleRestrictedUser (so the schedule takes effect); every other type keeps its type.
 */
export function userTypeAfterSchedule(type: UserType): UserType {
  return type === 'unrestrictedUser' ? 'scheduleRestrictedUser' : type;
}

/** CredentialRulesBitmap (Matter 5.2.6.2): single, dual (tri is not supported by ZIGUANG locks). */
export const CREDENTIAL_RULES = ['single', 'dual'] as const;
export type CredentialRule = (typeof CREDENTIAL_RULES)[number];
export const CREDENTIAL_RULE_LABELS: Record<CredentialRule, LocalizedText> = {
  single: t('单人开门', 'Single'),
  dual: t('双人开门', 'Dual (two people)'),
};
/** A dual-rule opening needs the second person's credential within this long of the first, ms. */
export const DUAL_CREDENTIAL_WINDOW_MS = 10_000;

/** OperatingModeEnum (Matter 5.2.6.12), the mode a holiday schedule puts the lock in. */
export const OPERATING_MODES = ['normal', 'vacation', 'privacy', 'noRemoteLockUnlock', 'passage'] as const;
export type OperatingMode = (typeof OPERATING_MODES)[number];
export const OPERATING_MODE_LABELS: Record<OperatingMode, LocalizedText> = {
  normal: t('正常', 'Normal'),
  vacation: t('假期（禁止用户开门）', 'Vacation (no user access)'),
  privacy: t('隐私（禁止一切外部开门）', 'Privacy (no external access)'),
  noRemoteLockUnlock: t('禁止远程开关锁', 'No remote lock/unlock'),
  passage: t('通行（无需凭证）', 'Passage (no credential needed)'),
};
/** When several holiday schedules overlap, the most restrictive mode wins: later in this list wins. */
export const OPERATING_MODE_PRECEDENCE: readonly OperatingMode[] = ['normal', 'passage', 'noRemoteLockUnlock', 'vacation', 'privacy'];

/** DaysMaskMap (Matter 5.2.6.5): bit 0 Sunday ... bit 6 Saturday. */
export const WEEK_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
export const WEEK_DAY_LABELS: Record<WeekDay, LocalizedText> = {
  sunday: t('周日', 'Sun'), monday: t('周一', 'Mon'), tuesday: t('周二', 'Tue'), wednesday: t('周三', 'Wed'),
  thursday: t('周四', 'Thu'), friday: t('周五', 'Fri'), saturday: t('周六', 'Sat'),
};
/** The days of a DaysMaskMap, Sunday first. */
export const daysOfMask = (mask: number): WeekDay[] => WEEK_DAYS.filter((_, bit) => (mask >> bit) & 1);
/** The DaysMaskMap of some days. */
export const maskOfDays = (days: readonly WeekDay[]): number => days.reduce((mask, day) => mask | (1 << WEEK_DAYS.indexOf(day)), 0);

/**
 * DlStatus (Matter 5.2.6.8): the answers of the cluster's Set/Get/Clear commands. The platform refuses
 * with the same meanings before anything is sent (api/errors.ts SCHEDULE_DUPLICATE, SCHEDULE_OCCUPIED,
 * RESOURCE_EXHAUSTED); a ZIGUANG lock answers with protocol.RESULT_CODES, which map onto them
 * (DL_STATUS_OF_RESULT).
 */
export const DL_STATUS = {
  success: 0x00,
  failure: 0x01,
  duplicate: 0x02,
  occupied: 0x03,
  invalidField: 0x85,
  resourceExhausted: 0x89,
  notFound: 0x8b,
} as const;
export type DlStatus = keyof typeof DL_STATUS;
/** protocol.RESULT_CODES value -> the DlStatus it means (docs/access-schedules.md). */
export const DL_STATUS_OF_RESULT: Readonly<Record<number, DlStatus>> = {
  0: 'success', 1: 'invalidField', 2: 'invalidField', 3: 'occupied', 4: 'notFound', 5: 'resourceExhausted', 6: 'notFound', 7: 'duplicate', 8: 'failure',
};
export const DL_STATUS_LABELS: Record<DlStatus, LocalizedText> = {
  success: t('成功', 'Success'), failure: t('失败', 'Failure'), duplicate: t('重复', 'Duplicate'), occupied: t('已被占用', 'Occupied'),
  invalidField: t('字段无效', 'Invalid field'), resourceExhausted: t('资源已用尽', 'Resource exhausted'), notFound: t('未找到', 'Not found'),
};

/** The kinds of schedule a lock holds (Matter features WDSCH, YDSCH, HDSCH). */
export const SCHEDULE_KINDS = ['weekDay', 'yearDay'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];
export const SCHEDULE_KIND_LABELS: Record<ScheduleKind | 'holiday', LocalizedText> = {
  weekDay: t('每周时间表', 'Week-day schedule'), yearDay: t('日期时间表', 'Year-day schedule'), holiday: t('节假日时间表', 'Holiday schedule'),
};

/**
 * Why a lock refused someone (unlock records, "who can open at T", the simulator's answer). The first
 * five were there before Matter; `outsideSchedule` is the refused-by-schedule.
 */
export const ACCESS_REFUSALS = [
  'unknown', 'notYetValid', 'expired', 'frozen', 'used', 'outsideSchedule', 'operatingMode', 'nonAccessUser', 'remoteOnly', 'awaitingSecondCredential',
] as const;
export type AccessRefusal = (typeof ACCESS_REFUSALS)[number];
export const ACCESS_REFUSAL_LABELS: Record<AccessRefusal, LocalizedText> = {
  unknown: t('凭证不存在', 'Unknown credential'),
  notYetValid: t('尚未生效', 'Not yet valid'),
  expired: t('已过期', 'Expired'),
  frozen: t('用户已冻结', 'User frozen'),
  used: t('一次性凭证已使用', 'One-time credential used'),
  outsideSchedule: t('不在时间表内', 'Outside schedule'),
  operatingMode: t('节假日运行模式禁止', 'Refused by holiday operating mode'),
  nonAccessUser: t('无开门权限用户', 'Non-access user'),
  remoteOnly: t('仅限远程开门', 'Remote only'),
  awaitingSecondCredential: t('等待第二人验证', 'Waiting for a second person'),
};
