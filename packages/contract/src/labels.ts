/**
 * Display labels of the device logs' enum values in both languages (exports write them in the
 * caller's language). The console's locale files carry the same words (apps/web/src/locales/
 * {zh-CN,en-US}/deviceLog.json: uplinkTypes, methods, kinds, severities, states, success/failed);
 * apps/web/src/locales/parity.test.ts keeps the two equal.
 */
import type { LocalizedText } from './i18n.js';

const t = (zh: string, en: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en });

/** Enum value -> label, per enum of the device logs. */
export const LOG_LABELS = {
  uplinkTypes: {
    openRecord: t('开锁记录', 'Unlock record'), alarm: t('报警', 'Alarm'), doorState: t('门状态', 'Door state'),
    commandResult: t('指令结果', 'Command result'), configReport: t('配置上报', 'Config report'),
  },
  methods: {
    password: t('密码', 'Password'), card: t('卡片', 'Card'), fingerprint: t('指纹', 'Fingerprint'), app: t('APP', 'App'),
    mechanicalKey: t('机械钥匙', 'Mechanical key'), remote: t('远程', 'Remote'),
  },
  kinds: {
    tamper: t('防撬报警', 'Tamper'), forcedOpen: t('强行开门', 'Forced open'), duress: t('胁迫报警', 'Duress'),
    wrongPasswordLockout: t('密码错误锁定', 'Wrong-password lockout'), doorLeftOpen: t('门未关', 'Door left open'), lowBattery: t('低电量', 'Low battery'),
  },
  severities: { critical: t('紧急', 'Critical'), major: t('重要', 'Major'), minor: t('次要', 'Minor'), warning: t('提示', 'Warning') },
  states: { active: t('未解除', 'Active'), cleared: t('已解除', 'Cleared') },
  /** Outcome of an attempt (true / false). */
  outcome: { true: t('成功', 'Succeeded'), false: t('失败', 'Failed') },
} as const satisfies Record<string, Record<string, LocalizedText>>;
