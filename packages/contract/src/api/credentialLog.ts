/**
 * The vocabulary of credential sync (states, kinds, actions) and the operation logs
 * (用户/密码/卡/指纹操作日志): who did what to which lock user or credential, and the lock's answer
 * (through the command row). Endpoints are in credential.ts.
 */
import { z } from 'zod';
import { keyword } from './input.js';
import { COMMAND_STATES } from '../protocol/index.js';
import { lockRefFields, lockRefRecord } from './deviceLog.js';
import { pageQuery, sortFields } from './envelope.js';
import { isoTime } from './time.js';

export const SYNC_STATES = ['adding', 'add_failed', 'normal', 'modifying', 'modify_failed', 'deleting', 'delete_failed'] as const;
export type SyncState = (typeof SYNC_STATES)[number];
export const FAILED_SYNC_STATES = ['add_failed', 'modify_failed', 'delete_failed'] as const satisfies readonly SyncState[];
export const CREDENTIAL_KINDS = ['password', 'tempPassword', 'card', 'fingerprint'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];
export const LOCK_USER_STATUSES = ['normal', 'frozen'] as const;
/** What an operation log row is about: one page / log each. */
export const CREDENTIAL_SUBJECTS = ['user', 'password', 'card', 'fingerprint', 'schedule', 'holiday'] as const;
export type CredentialSubject = (typeof CREDENTIAL_SUBJECTS)[number];
/** What the subject of a retry/discard route is called (system log), by route base. */
export const SUBJECT_NAMES = {
  operateUser: { 'zh-CN': '门锁用户', 'en-US': 'lock user' }, operatePassword: { 'zh-CN': '密码', 'en-US': 'password' },
  operateCard: { 'zh-CN': '门卡', 'en-US': 'card' }, operateFp: { 'zh-CN': '指纹', 'en-US': 'fingerprint' },
} as const;
/** `lockCleared`: the lock removed it on its own (a disposable user after its one use; LockUserChange). */
export const CREDENTIAL_ACTIONS = ['add', 'modify', 'freeze', 'unfreeze', 'delete', 'reportLost', 'offboard', 'retry', 'discard', 'lockCleared', 'adopt', 'requeue', 'markLost'] as const;
export type CredentialAction = (typeof CREDENTIAL_ACTIONS)[number];
/** Operation-log columns the server sorts by. */
export const OPERATION_LOG_SORT_FIELDS = ['createdAt'] as const;
export const operationLogQuery = pageQuery.extend({
  ...sortFields(OPERATION_LOG_SORT_FIELDS),
  ...lockRefFields, keyword: keyword().optional(), action: z.enum(CREDENTIAL_ACTIONS).optional(),
  startTime: isoTime.optional(), endTime: isoTime.optional(),
});
export const operationLogRecord = z.object({
  id: z.number().int(), ...lockRefRecord, subject: z.enum(CREDENTIAL_SUBJECTS), action: z.enum(CREDENTIAL_ACTIONS),
  /** The lock user or credential row (may be gone since). */
  rowId: z.number().int().nullable(), kind: z.enum(CREDENTIAL_KINDS).nullable(), slot: z.number().int().nullable(),
  holderName: z.string().nullable(), operator: z.string(), createdAt: z.string(),
  /** The command and the lock's answer (null when nothing was sent, e.g. discard). */
  commandId: z.number().int().nullable(), commandState: z.enum(COMMAND_STATES).nullable(),
  resultCode: z.number().int().nullable(), resultDetail: z.string().nullable(),
});
export type OperationLogRecord = z.infer<typeof operationLogRecord>;

