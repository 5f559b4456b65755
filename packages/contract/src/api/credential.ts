// CONTRACT READY
/**
 * Credentials kept in sync with the locks (凭证管理 + 操作日志). Lock users (a person under a
 * user slot) and credentials (password, tempPassword, card, fingerprint) carry a sync state driven by
 * the command that carries them (TTLock's model): adding -> normal | add_failed, modifying -> normal |
 * modify_failed, deleting -> (row removed) | delete_failed. A failed row can be retried or discarded.
 * Password digits are never returned except by `reveal` (VOUCHER_PASSWORD_REVEAL); elsewhere `******`.
 * Times are ISO 8601 (requests: with offset; responses: UTC). Validity windows are end-exclusive and
 * kept to the minute (seconds dropped). Vocabulary and operation-log schemas: credentialLog.ts.
 */
import { z } from 'zod';
import { int4Id, int8Id, keyword, text } from './input.js';
import { ACCESS_REFUSALS, CREDENTIAL_RULES, OPERATING_MODES, USER_TYPES } from '../access/matter.js';
import { COMMAND_STATES, type OPEN_METHODS } from '../protocol/index.js';
import { commandRecord, lockId } from './command.js';
import { lockRefFields, lockRefRecord } from './deviceLog.js';
import type { Authority } from '../authorities.js';
import { endpoint } from './endpoint.js';
import { pageOf, pageQuery, sortFields } from './envelope.js';
import { isoTime } from './time.js';
import { CREDENTIAL_KINDS, CREDENTIAL_SUBJECTS, LOCK_USER_STATUSES, operationLogQuery, operationLogRecord, SUBJECT_NAMES, SYNC_STATES } from './credentialLog.js';

/** How a secret is shown outside `reveal`. */
export const SECRET_MASK = '******';

/** Lock users and credentials are int4 serials. */
const rowId = int4Id;
const name = text().trim().min(1).max(64);
const phone = z.string().trim().regex(/^\+?\d{5,20}$/, 'phone: 5-20 digits, optional leading +');
/** Password digits as typed; the lock model's length rule is checked by the server (lockModels.ts). */
const digits = z.string().regex(/^\d{4,12}$/, 'digits only');
/** IC card number, hex (8-20 characters). */
export const cardNumber = z.string().trim().regex(/^[0-9A-Fa-f]{8,20}$/, 'hex, 8-20 characters');
const validityFields = { validFrom: isoTime.optional(), validTo: isoTime.optional() };

/** A lock user (a person under a user slot of one lock). */
export const lockUserRecord = z.object({
  id: z.number().int(), ...lockRefRecord, userSlot: z.number().int(), name: z.string(), phone: z.string().nullable(),
  /** null: no limit. */
  validFrom: z.string().nullable(), validTo: z.string().nullable(),
  status: z.enum(LOCK_USER_STATUSES), syncState: z.enum(SYNC_STATES),
  /** Matter UserType and CredentialRule; expiringMinutes for an expiringUser, else null. */
  userType: z.enum(USER_TYPES), credentialRule: z.enum(CREDENTIAL_RULES), expiringMinutes: z.number().int().nullable(),
  /** The command of the last operation and its state (null before any). */
  lastCommandId: z.number().int().nullable(), lastCommandState: z.enum(COMMAND_STATES).nullable(),
  /** The lock's answer code to that command (protocol RESULT_CODES; null before an answer); failureReasonText reads it. */
  lastResultCode: z.number().int().nullable(),
  /** Credentials of this user on the lock. */
  credentials: z.number().int(), createdBy: z.string(), createdAt: z.string(), updatedAt: z.string(),
});
export type LockUserRecord = z.infer<typeof lockUserRecord>;

/** A credential on one lock. */
export const credentialRecord = z.object({
  id: z.number().int(), ...lockRefRecord, kind: z.enum(CREDENTIAL_KINDS),
  /** Slot on the lock; null for a fingerprint until the lock answers its enrolment. */
  slot: z.number().int().nullable(),
  lockUserId: z.number().int().nullable(), userSlot: z.number().int().nullable(), holderName: z.string().nullable(), holderPhone: z.string().nullable(),
  validFrom: z.string().nullable(), validTo: z.string().nullable(), oneTime: z.boolean(),
  /** Passwords: SECRET_MASK; others null. */
  secret: z.string().nullable(),
  /** Cards: as entered, and whether it is sent in reversed byte order; others null / false. */
  cardNumber: z.string().nullable(), reversed: z.boolean(),
  syncState: z.enum(SYNC_STATES),
  lastCommandId: z.number().int().nullable(), lastCommandState: z.enum(COMMAND_STATES).nullable(),
  /** The lock's answer code to the last command (null before an answer); failureReasonText reads it. */
  lastResultCode: z.number().int().nullable(),
  createdBy: z.string(), createdAt: z.string(), updatedAt: z.string(),
});
export type CredentialRecord = z.infer<typeof credentialRecord>;

/* ------------------------------------------------------------------ operations */
const idAction = <A extends string>(action: A) => z.strictObject({ action: z.literal(action), id: rowId });
/**
 * Matter user types: `expiringMinutes` (1-2880) is required for an expiringUser and refused
 * otherwise; `credentialRule` dual only where the device type supports it (400 otherwise).
 */
const userTypeFields = { userType: z.enum(USER_TYPES).optional(), credentialRule: z.enum(CREDENTIAL_RULES).optional(), expiringMinutes: z.number().int().min(1).max(2880).optional() };
export const userOperationBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add'), lockId, name, phone: phone.optional(), ...validityFields, ...userTypeFields }),
  z.strictObject({ action: z.literal('modify'), id: rowId, name: name.optional(), phone: phone.nullable().optional(), ...validityFields, ...userTypeFields }),
  idAction('freeze'), idAction('unfreeze'), idAction('delete'),
]);
/** `password` omitted: the platform draws random digits of the model's minimum length (see them with reveal). */
export const foreverPasswordBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add'), lockId, lockUserId: rowId.optional(), password: digits.optional() }),
  idAction('delete'),
]);
/** oneTime without a window: valid from now for 24 h. Not oneTime: validFrom and validTo are required. */
export const tempPasswordBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add'), lockId, lockUserId: rowId.optional(), password: digits.optional(), oneTime: z.boolean().default(false), ...validityFields }),
  idAction('delete'),
]);
/** reportLost: deletes that card number on every lock of the tenant holding it (per-lock results). */
export const cardOperateBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add'), lockId, lockUserId: rowId.optional(), cardNumber, reversed: z.boolean().default(false) }),
  idAction('delete'),
  z.strictObject({ action: z.literal('reportLost'), cardNumber, reversed: z.boolean().default(false) }),
]);
/** Remote enrolment: the lock answers with the slot once the person has placed the finger. */
export const addFingerPrintBody = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('add'), lockId, lockUserId: rowId }),
  idAction('delete'),
]);

/** What one lock did in a multi-lock operation (report lost, offboard). */
export const lockOperationResult = z.object({
  lockId: z.number().int(), imei: z.string(), lockName: z.string(),
  /** Commands queued for this lock: which row, which command, its state now. */
  commands: z.array(z.object({ subject: z.enum(CREDENTIAL_SUBJECTS), rowId: z.number().int(), commandId: z.number().int(), state: z.enum(COMMAND_STATES) })),
  /** Set when this lock refused (e.g. QUEUE_FULL); nothing was queued for it then. */
  error: z.string().nullable(),
});
export const multiLockResult = z.object({ locks: z.array(lockOperationResult) });
/** add/delete: `records` holds the one row; reportLost: every row being deleted, plus per-lock results. */
export const cardOperateResult = z.object({ records: z.array(credentialRecord), locks: z.array(lockOperationResult) });

export const offboardBody = z.union([z.strictObject({ phone }), z.strictObject({ name })]);
export const commandStatesBody = z.strictObject({ commandIds: z.array(int8Id).min(1).max(500) });
export const commandStates = z.array(z.object({ commandId: z.number().int(), state: z.enum(COMMAND_STATES) }));

/**
 * The pages that pick a lock user (用户管理 lists them; 密码, 卡片, 指纹管理 choose one when adding a
 * credential): each one's own authority opens the lock-user list (a page's lookups come
 * with the page's key).
 */
export const LOCK_USER_PICKER_ACCESS: readonly Authority[] = ['VOUCHER_USER_MANAGE', 'VOUCHER_PASSWORD_MANAGE', 'VOUCHER_CARD_MANAGE', 'VOUCHER_FP_MANAGE', 'VOUCHER_SCHEDULE_MANAGE', 'LOCK_DRIFT_RESOLVE'];

/* ------------------------------------------------------------------ lists, logs */
const listFields = {
  ...lockRefFields,
  /** Matches holder name or phone, card number, lock IMEI, name or room (substring). */
  keyword: keyword().optional(),
  syncState: z.enum(SYNC_STATES).optional(),
  lockUserId: rowId.optional(),
};
/** Lock-user and credential columns the server sorts by. */
export const LOCK_USER_SORT_FIELDS = ['name', 'userSlot', 'createdAt', 'updatedAt'] as const;
export const CREDENTIAL_SORT_FIELDS = ['slot', 'createdAt', 'updatedAt'] as const;
export const lockUserListQuery = pageQuery.extend({ ...listFields, status: z.enum(LOCK_USER_STATUSES).optional(), userType: z.enum(USER_TYPES).optional(), ...sortFields(LOCK_USER_SORT_FIELDS) });
export const credentialListQuery = pageQuery.extend({ ...listFields, kind: z.enum(CREDENTIAL_KINDS).optional(), ...sortFields(CREDENTIAL_SORT_FIELDS) });

/* ------------------------------------------------------------------ lock views */
export const lockRefQuery = z.object(lockRefFields).refine((v) => v.lockId !== undefined || v.imei !== undefined, { message: 'lockId or imei is required', path: ['lockId'] });
const tableUse = z.object({ capacity: z.number().int(), used: z.number().int(), free: z.number().int() });
/** Rows held on the platform per table (any sync state but a finished delete) against the model's slots. */
export const lockCapacity = z.object({
  lockId: z.number().int(), imei: z.string(), model: z.string(),
  passwordDigits: z.object({ min: z.number().int(), max: z.number().int() }), maxValidityDays: z.number().int(),
  users: tableUse, passwords: tableUse, cards: tableUse, fingerprints: tableUse,
  /** Schedules and credential rules the device type supports (lockModels.ts AccessCapacity). */
  access: z.object({
    weekDaySchedulesPerUser: z.number().int(), yearDaySchedulesPerUser: z.number().int(), holidaySchedules: z.number().int(),
    credentialRulesSupport: z.array(z.enum(CREDENTIAL_RULES)),
  }),
});
export const whoCanOpenQuery = z.object({ ...lockRefFields, /** Default now. */ at: isoTime.optional() })
  .refine((v) => v.lockId !== undefined || v.imei !== undefined, { message: 'lockId or imei is required', path: ['lockId'] });
/**
 * Every credential confirmed on the lock (any sync state but adding / add_failed: a pending or failed
 * delete may still open), decided at `at` by the lock's own rules (access/decide.ts) with what the lock
 * holds: validity windows, frozen holders, a one-time password reported used, the holder's user type
 * and schedules, the holiday schedule in force (`operatingMode`; `passage`: the door opens for anyone).
 * `refused`: the other confirmed credentials, each with why it cannot open at `at`.
 */
export const whoCanOpen = z.object({
  lockId: z.number().int(), imei: z.string(), at: z.string(), operatingMode: z.enum(OPERATING_MODES),
  records: z.array(credentialRecord),
  refused: z.array(z.object({ record: credentialRecord, reason: z.enum(ACCESS_REFUSALS) })),
});

export const revealBody = z.strictObject({ id: rowId });
export const revealResult = z.object({ id: z.number().int(), password: z.string() });
export const rowIdBody = z.strictObject({ id: rowId });

/** Demo/test facility of the in-process simulated fleet (SIM_LOCKS > 0): someone tries to open the lock. */
export const attemptOpenBody = z.strictObject({
  ...lockRefFields, method: z.enum(['password', 'card', 'fingerprint'] as const satisfies readonly (typeof OPEN_METHODS)[number][]),
  password: digits.optional(), cardNumber: cardNumber.optional(), fingerprintSlot: z.number().int().min(0).max(65_535).optional(),
  /** The lock's clock for this attempt (a controllable clock for demos and tests); default its own. */
  at: isoTime.optional(),
}).refine((v) => v.lockId !== undefined || v.imei !== undefined, { message: 'lockId or imei is required', path: ['lockId'] });
export const attemptOpenResult = z.object({
  success: z.boolean(),
  /** Why it failed (ACCESS_REFUSALS: unknown, expired, outsideSchedule, ...), or null. */
  reason: z.enum(ACCESS_REFUSALS).nullable(), slot: z.number().int().nullable(), userSlot: z.number().int().nullable(),
});

/* ------------------------------------------------------------------ endpoints */
const T = 'token' as const;
const subjectRoutes = (base: keyof typeof SUBJECT_NAMES, manage: 'VOUCHER_USER_MANAGE' | 'VOUCHER_PASSWORD_MANAGE' | 'VOUCHER_CARD_MANAGE' | 'VOUCHER_FP_MANAGE', log: 'OPERATE_USER_LOG' | 'OPERATE_PASSWORD_LOG' | 'OPERATE_CARD_LOG' | 'OPERATE_FP_LOG', record: typeof lockUserRecord | typeof credentialRecord) => {
  const subject = SUBJECT_NAMES[base];
  const retryLabel = { 'zh-CN': `重试同步${subject['zh-CN']}`, 'en-US': `Retry ${subject['en-US']} sync` };
  const discardLabel = { 'zh-CN': `放弃同步失败的${subject['zh-CN']}`, 'en-US': `Discard failed ${subject['en-US']}` };
  const entity = base === 'operateUser' ? 'lockUser' as const : 'credential' as const;
  return {
    /** Newest operations first. */
    log: endpoint({ method: 'GET', path: `/iot/v1/${base}/log`, access: log, kind: T, query: operationLogQuery, response: pageOf(operationLogRecord) }),
    /** Re-sends the failed operation of the row (409 NOT_FAILED unless *_failed). */
    retry: endpoint({ method: 'POST', path: `/iot/v1/${base}/retry`, access: manage, kind: T, action: { label: retryLabel, target: ['id'], entity }, body: rowIdBody, response: record }),
    /** Deletes the platform row of a failed operation without sending anything (409 NOT_FAILED unless *_failed). */
    discard: endpoint({ method: 'POST', path: `/iot/v1/${base}/discard`, access: manage, kind: T, action: { label: discardLabel, target: ['id'], entity }, body: rowIdBody, response: z.object({ id: z.number().int() }) }),
  };
};

export const credentialEndpoints = {
  userOperation: endpoint({ method: 'POST', path: '/iot/v1/zg/userOperation', access: 'VOUCHER_USER_MANAGE', kind: T, idempotent: true, action: { label: { 'zh-CN': '门锁用户操作', 'en-US': 'Lock user operation' }, target: ['id', 'lockId'], entity: 'lockUser' }, body: userOperationBody, response: lockUserRecord }),
  foreverPassword: endpoint({ method: 'POST', path: '/iot/v1/zg/foreverPassword', access: 'VOUCHER_PASSWORD_MANAGE', kind: T, idempotent: true, action: { label: { 'zh-CN': '永久密码操作', 'en-US': 'Permanent password operation' }, target: ['id', 'lockId'], entity: 'credential' }, body: foreverPasswordBody, response: credentialRecord }),
  tempPassword: endpoint({ method: 'POST', path: '/iot/v1/zg/tempPassword', access: 'VOUCHER_PASSWORD_MANAGE', kind: T, idempotent: true, action: { label: { 'zh-CN': '临时密码操作', 'en-US': 'Temporary password operation' }, target: ['id', 'lockId'], entity: 'credential' }, body: tempPasswordBody, response: credentialRecord }),
  cardOperate: endpoint({ method: 'POST', path: '/iot/v1/zg/cardOperate', access: 'VOUCHER_CARD_MANAGE', kind: T, idempotent: true, action: { label: { 'zh-CN': '门卡操作', 'en-US': 'Card operation' }, target: ['id', 'lockId'], entity: 'credential' }, body: cardOperateBody, response: cardOperateResult }),
  addFingerPrint: endpoint({ method: 'POST', path: '/iot/v1/zg/addFingerPrint', access: 'VOUCHER_FP_MANAGE', kind: T, idempotent: true, action: { label: { 'zh-CN': '指纹操作', 'en-US': 'Fingerprint operation' }, target: ['id', 'lockId'], entity: 'credential' }, body: addFingerPrintBody, response: credentialRecord }),
  /** Vendor-route registration of a lock; returns the queued command. */
  registerDevice: endpoint({ method: 'POST', path: '/iot/v1/zg/registerDevice', access: 'LOOK_CONFIG', kind: T, action: { label: { 'zh-CN': '注册门锁', 'en-US': 'Register lock' }, target: ['lockId'] }, body: z.strictObject({ lockId }), response: commandRecord }),
  /** Unregisters the lock, which clears its credential tables; on success the platform's rows of that lock go too. */
  deleteDevice: endpoint({ method: 'POST', path: '/iot/v1/zg/deleteDevice', access: 'LOOK_CONFIG', kind: T, action: { label: { 'zh-CN': '注销门锁', 'en-US': 'Unregister lock' }, target: ['lockId'] }, body: z.strictObject({ lockId }), response: commandRecord }),
  userList: endpoint({ method: 'GET', path: '/iot/v1/operateUser/list', access: LOCK_USER_PICKER_ACCESS, kind: T, query: lockUserListQuery, response: pageOf(lockUserRecord) }),
  /** Passwords and temporary passwords (filter `kind`). */
  passwordList: endpoint({ method: 'GET', path: '/iot/v1/operatePassword/list', access: 'VOUCHER_PASSWORD_MANAGE', kind: T, query: credentialListQuery, response: pageOf(credentialRecord) }),
  cardList: endpoint({ method: 'GET', path: '/iot/v1/operateCard/list', access: 'VOUCHER_CARD_MANAGE', kind: T, query: credentialListQuery, response: pageOf(credentialRecord) }),
  fpList: endpoint({ method: 'GET', path: '/iot/v1/operateFp/list', access: 'VOUCHER_FP_MANAGE', kind: T, query: credentialListQuery, response: pageOf(credentialRecord) }),
  user: subjectRoutes('operateUser', 'VOUCHER_USER_MANAGE', 'OPERATE_USER_LOG', lockUserRecord),
  password: subjectRoutes('operatePassword', 'VOUCHER_PASSWORD_MANAGE', 'OPERATE_PASSWORD_LOG', credentialRecord),
  card: subjectRoutes('operateCard', 'VOUCHER_CARD_MANAGE', 'OPERATE_CARD_LOG', credentialRecord),
  fp: subjectRoutes('operateFp', 'VOUCHER_FP_MANAGE', 'OPERATE_FP_LOG', credentialRecord),
  /** The digits of one password; writes a system-log row each time. */
  reveal: endpoint({ method: 'POST', path: '/iot/v1/operatePassword/reveal', access: 'VOUCHER_PASSWORD_REVEAL', kind: T, action: { label: { 'zh-CN': '查看密码', 'en-US': 'Reveal password' }, target: ['id'], entity: 'credential' }, body: revealBody, response: revealResult }),
  /** Revokes every credential and lock user of a person (by phone or name) on every lock of the tenant. */
  offboard: endpoint({ method: 'POST', path: '/iot/v1/operateUser/offboard', access: 'VOUCHER_USER_MANAGE', kind: T, action: { label: { 'zh-CN': '人员离职注销', 'en-US': 'Offboard person' }, target: ['phone', 'name'] }, body: offboardBody, response: multiLockResult, stepUp: true }),
  /** Progress of an offboarding / report-lost: the states of its commands (unknown ids are left out). */
  commandStates: endpoint({ method: 'POST', path: '/iot/v1/operateUser/commandStates', access: ['VOUCHER_USER_MANAGE', 'VOUCHER_CARD_MANAGE'], kind: T, body: commandStatesBody, response: commandStates }),
  capacity: endpoint({ method: 'GET', path: '/iot/v1/lockDevice/capacity', access: ['VOUCHER_USER_MANAGE', 'VOUCHER_PASSWORD_MANAGE', 'VOUCHER_CARD_MANAGE', 'VOUCHER_FP_MANAGE', 'VOUCHER_SCHEDULE_MANAGE', 'LOOK_INFO'], kind: T, query: lockRefQuery, response: lockCapacity }),
  whoCanOpen: endpoint({ method: 'GET', path: '/iot/v1/lockDevice/whoCanOpen', access: ['LOOK_INFO', 'VOUCHER_USER_MANAGE', 'VOUCHER_SCHEDULE_MANAGE'], kind: T, query: whoCanOpenQuery, response: whoCanOpen }),
  /** DEMO/TEST ONLY: types a password / presents a card or finger on a simulated lock; 404 when the lock is not simulated in-process. */
  attemptOpen: endpoint({ method: 'POST', path: '/iot/v1/simulator/attemptOpen', access: 'VOUCHER_PASSWORD_MANAGE', kind: T, action: { label: { 'zh-CN': '模拟开锁', 'en-US': 'Simulated open attempt' }, target: ['lockId', 'imei'] }, body: attemptOpenBody, response: attemptOpenResult }),
};
