/**
 * Display labels of the device logs' enum values in both languages (exports write them in the
 * caller's language). The console's locale files carry the same words (apps/web/src/locales/
 * {zh-CN,en-US}/deviceLog.json: uplinkTypes, methods, kinds, severities, states, success/failed);
 * apps/web/src/locales/parity.test.ts keeps the two equal.
 */
import type { Language, LocalizedText } from './i18n.js';
import type { LockConfig } from './protocol/index.js';
import { localized as t } from './i18n.js';


/** Enum value -> label, per enum of the device logs. */
export const LOG_LABELS = {
  uplinkTypes: {
    openRecord: t('开锁记录', 'Unlock record'), alarm: t('报警', 'Alarm'), doorState: t('门状态', 'Door state'),
    commandResult: t('指令结果', 'Command result'), configReport: t('配置上报', 'Config report'),
    otaChunkRequest: t('固件分片请求', 'Firmware chunk request'), otaStatus: t('固件升级状态', 'Firmware update status'),
    lockUserChange: t('门锁用户变更', 'Lock user change'), inventory: t('门锁清单', 'Lock inventory'),
  },
  methods: {
    password: t('密码', 'Password'), card: t('卡片', 'Card'), fingerprint: t('指纹', 'Fingerprint'), app: t('APP', 'App'),
    mechanicalKey: t('机械钥匙', 'Mechanical key'), remote: t('远程', 'Remote'),
  },
  kinds: {
    tamper: t('防撬报警', 'Tamper'), forcedOpen: t('强行开门', 'Forced open'), duress: t('胁迫报警', 'Duress'),
    wrongPasswordLockout: t('密码错误锁定', 'Wrong-password lockout'), doorLeftOpen: t('门未关', 'Door left open'), lowBattery: t('低电量', 'Low battery'),
    forcedEntry: t('疑似强行进入', 'Forced entry'), bruteForce: t('暴力尝试', 'Brute force'), silentLock: t('门锁失联', 'Silent lock'),
    batteryCliff: t('电量将耗尽', 'Battery cliff'), credentialDrift: t('凭证与门锁不一致', 'Credential drift'),
  },
  /** Operational events that notification rules may watch (NOTIFICATION_EVENT_KINDS). */
  eventKinds: {
    credentialSyncFailed: t('凭证同步失败', 'Credential sync failed'), commandFailed: t('指令失败或过期', 'Command failed or expired'),
    otaPaused: t('固件升级暂停', 'Firmware rollout paused'), pushPaused: t('推送地址已暂停', 'Push endpoint paused'), paymentReceived: t('订单已支付', 'Order paid'), orderRefunded: t('订单已退款', 'Order refunded'),
    stayNotReady: t('入住未就绪', 'Stay not ready'),
  },
  /** Air switch alarm kinds (the alarm log's device kind "air switch") and trip reasons. */
  airSwitchKinds: {
    trip: t('跳闸', 'Trip'), overVoltage: t('过压', 'Over-voltage'), underVoltage: t('欠压', 'Under-voltage'), overCurrent: t('过流', 'Over-current'),
    overPower: t('超功率', 'Over-power'), leakageWarn: t('漏电预警', 'Leakage warning'), overTemperature: t('过温', 'Over-temperature'),
  },
  tripReasons: {
    overCurrent: t('过流', 'Over-current'), shortCircuit: t('短路', 'Short circuit'), overVoltage: t('过压', 'Over-voltage'), underVoltage: t('欠压', 'Under-voltage'),
    leakage: t('漏电', 'Leakage'), overTemperature: t('过温', 'Over-temperature'), manual: t('手动', 'Manual'),
  },
  severities: { critical: t('紧急', 'Critical'), major: t('重要', 'Major'), minor: t('次要', 'Minor'), warning: t('提示', 'Warning') },
  states: { active: t('未解除', 'Active'), cleared: t('已解除', 'Cleared') },
  /** Outcome of an attempt (true / false). */
  outcome: { true: t('成功', 'Succeeded'), false: t('失败', 'Failed') },
} as const satisfies Record<string, Record<string, LocalizedText>>;

/** Label of each commandResult code (protocol.RESULT_CODES); other codes: RESULT_CODE_UNKNOWN. */
export const RESULT_CODE_LABELS: Readonly<Record<number, LocalizedText>> = {
  0: t('成功', 'Succeeded'),
  1: t('指令格式无效', 'Invalid command'),
  2: t('槽位超出范围', 'Slot out of range'),
  3: t('槽位已被占用', 'Slot already taken'),
  4: t('门锁上没有该记录', 'Not on the lock'),
  5: t('门锁存储已满', 'Lock storage full'),
  6: t('门锁上没有该用户', 'No such user on the lock'),
  7: t('门锁上已有相同的时间表', 'The same schedule is already on the lock'),
  8: t('门锁拒绝开锁', 'The lock refused to unlock'),
};

/** The readable answer of a command: the code's label (or "code N"), and the assigned slot. */
export function resultCodeText(code: number | null, slot: number | null, language: Language): string {
  if (code === null) return '';
  const label = RESULT_CODE_LABELS[code]?.[language] ?? (language === 'zh-CN' ? `错误码 ${code}` : `code ${code}`);
  return slot === null ? label : `${label} · #${slot}`;
}

/** Why a command ended without the lock's answer (its state), for a failed sync. */
const UNANSWERED_LABELS: Readonly<Record<string, LocalizedText>> = {
  TIMEOUT: t('门锁未应答（超时）', 'The lock did not answer (timed out)'),
  EXPIRED: t('指令过期未送达门锁', 'The command expired before reaching the lock'),
  CANCELED: t('指令已取消', 'The command was canceled'),
};

/**
 * Why the last operation of a credential or lock user failed (shown on its row and in its
 * detail, not only in 下发日志): the lock's answer code translated (RESULT_CODE_LABELS, e.g. 6 门锁上没有该用户),
 * else why no answer came (timeout, expiry, cancel); undefined when it did not fail.
 */
export function failureReasonText(commandState: string | null, resultCode: number | null, language: Language): string | undefined {
  if (resultCode !== null && resultCode !== 0) return resultCodeText(resultCode, null, language);
  return commandState ? UNANSWERED_LABELS[commandState]?.[language] : undefined;
}

/** What each alarm kind means, shown as the alert's detail (the lock's own text goes beside it). */
export const ALERT_DETAIL_LABELS = {
  tamper: t('门锁检测到撬动或拆卸', 'The lock detected prying or removal'),
  forcedOpen: t('门在未开锁时被打开', 'The door was opened without unlocking'),
  duress: t('使用了胁迫密码或指纹开门', 'Opened with a duress password or fingerprint'),
  wrongPasswordLockout: t('多次输错密码，键盘已暂时锁定', 'Too many wrong passwords: keypad locked for a while'),
  doorLeftOpen: t('门长时间未关闭', 'The door has been open too long'),
  lowBattery: t('电池电量低，请尽快更换', 'Battery low: replace it soon'),
  forcedEntry: t('门被打开，但之前没有开锁或机械钥匙记录', 'The door opened with no unlock or key record before it'),
  bruteForce: t('短时间内多次开锁失败', 'Many failed unlock attempts in a short time'),
  silentLock: t('门锁超过 3 个心跳周期没有任何上报', 'No uplink from the lock for several heartbeat intervals'),
  batteryCliff: t('按电量趋势，电池将在几天内耗尽', 'The battery trend predicts it runs flat within days'),
  credentialDrift: t('门锁上报的凭证清单与平台记录不一致（未登记或缺失）', "The lock's inventory differs from the platform's (unmanaged or missing slots)"),
} as const satisfies Record<string, LocalizedText>;

/** The alert's detail in `language`: what its kind means, plus a reading the lock sent (e.g. `18%`). */
export function alertDetailText(kind: string, detail: string | null, language: Language): string {
  const meaning = (ALERT_DETAIL_LABELS as Record<string, LocalizedText>)[kind]?.[language];
  if (!meaning) return detail ?? '';
  const reading = detail && /^[\d.]+\s*%?$/.test(detail.trim()) ? ` (${detail.trim()})` : '';
  return `${meaning}${reading}`;
}

/** Credential operations (contract CREDENTIAL_ACTIONS): the sub-action of a credential call in the system log and operation logs. */
export const CREDENTIAL_ACTION_LABELS: Readonly<Record<string, LocalizedText>> = {
  add: t('添加', 'Add'), modify: t('修改', 'Modify'), freeze: t('冻结', 'Freeze'), unfreeze: t('解冻', 'Unfreeze'), delete: t('删除', 'Delete'),
  retry: t('重试', 'Retry'), discard: t('放弃', 'Discard'), reportLost: t('挂失', 'Report lost'), offboard: t('离职', 'Offboard'),
  lockCleared: t('门锁自行删除', 'Cleared by the lock'), adopt: t('认领', 'Adopt'), requeue: t('重新下发', 'Re-queue'), markLost: t('标记丢失', 'Mark lost'),
};

/** Labels and units of a lock's configuration fields (protocol.lockConfig). */
export const LOCK_CONFIG_LABELS: Readonly<Record<keyof LockConfig, { label: LocalizedText; unit?: LocalizedText }>> = {
  volume: { label: t('音量', 'Volume'), unit: t('%', '%') },
  autoLockS: { label: t('自动上锁', 'Auto-lock'), unit: t(' 秒', ' s') },
  heartbeatIntervalS: { label: t('心跳间隔', 'Heartbeat interval'), unit: t(' 秒', ' s') },
  wrongAttemptLimit: { label: t('错误次数上限', 'Wrong attempt limit') },
  language: { label: t('语言', 'Language') },
};
const CONFIG_LANGUAGES: Record<string, LocalizedText> = { 'zh-CN': t('中文', 'Chinese'), 'en-US': t('英文', 'English') };

/** A lock configuration as labelled fields, in protocol order: `音量 40% · 心跳间隔 120 秒`. */
export function lockConfigFields(config: LockConfig, language: Language): { label: string; value: string }[] {
  return (Object.keys(LOCK_CONFIG_LABELS) as (keyof LockConfig)[]).filter((key) => config[key] !== undefined).map((key) => {
    const { label, unit } = LOCK_CONFIG_LABELS[key];
    const raw = config[key];
    const value = key === 'language' ? (CONFIG_LANGUAGES[String(raw)]?.[language] ?? String(raw)) : `${raw}${unit?.[language] ?? ''}`;
    return { label: label[language], value };
  });
}
