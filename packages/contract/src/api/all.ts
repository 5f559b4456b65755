/**
 * Every endpoint of the contract, flattened from the per-entity tables: the fuzz test walks it, the
 * system-log page reads action names from it (`auditLabel`).
 */
import { accessKeys, type Authority } from '../authorities.js';
import type { Language, LocalizedText } from '../i18n.js';
import { CREDENTIAL_ACTION_LABELS } from '../labels.js';
import { ROUTES } from '../routes.js';
import { accountEndpoints } from './account.js';
import { accountContactEndpoints } from './accountContact.js';
import { apiKeyEndpoints } from './apiKey.js';
import { twoFactorEndpoints } from './twoFactor.js';
import { sessionEndpoints, signInHistoryEndpoints } from './session.js';
import { ssoEndpoints } from './sso.js';
import { BACKUP_CODE_AUTO_ACTION } from './stayBackupCode.js';
import { airSwitchEndpoints } from './airSwitch.js';
import { airSwitchAlertLogEndpoints } from './airSwitchAlert.js';
import { authEndpoints } from './auth.js';
import { commandEndpoints } from './command.js';
import { credentialEndpoints } from './credential.js';
import type { AuditAction, Endpoint } from './endpoint.js';
import { deviceTypeEndpoints } from './deviceType.js';
import { lockEndpoints } from './lock.js';
import { lockGroupEndpoints } from './lockGroup.js';
import { lockInformationEndpoints } from './lockInformation.js';
import { analysisEndpoints } from './analysis.js';
import { alertEndpoints } from './lockAlert.js';
import { journalEndpoints } from './lockJournal.js';
import { openRecordEndpoints } from './lockOpenRecord.js';
import { heartbeatLogEndpoints } from './logHeartbeat.js';
import { uplinkLogEndpoints } from './uplinkLog.js';
import { roleEndpoints } from './role.js';
import { demoReceiverEndpoints, subscriptionEndpoints } from './subscription.js';
import { auditLogEndpoints } from './auditLog.js';
import { tenantEndpoints } from './tenant.js';
import { offboardEndpoints } from './offboard.js';
import { billingEndpoints } from './billing.js';
import { wechatPayNotifyEndpoints } from './wechatPay.js';
import { firmwareEndpoints } from './firmware.js';
import { liveEndpoints } from './live.js';
import { accessScheduleEndpoints } from './accessSchedule.js';
import { holidayCalendarEndpoints } from './holidayCalendar.js';
import { lockDriftEndpoints } from './lockDrift.js';
import { remoteUnlockEndpoints } from './remoteUnlock.js';
import { notificationEndpoints } from './notification.js';
import { offlineCodeEndpoints } from './offlineCode.js';
import { stayEndpoints } from './stay.js';
import { workOrderEndpoints } from './workOrder.js';

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;
}

/**
 * The API's endpoint tables by name: an endpoint's name is its table's name and its key path there
 * (`lock.list`, `credential.tempPassword`, `credential.user.list`), the OpenAPI `operationId` and tag
 * that SDK generators name methods and classes after (apps/server/src/http/openapi.ts). Renaming a key
 * renames an operation: the list is kept in apps/server/test/openapi-operations.txt.
 * So a key may keep a published name its file no longer has (`systemLog` is the audit log, api/auditLog.ts;
 * `wx` and `wxNotify` are billing and its WeChat Pay notifications, api/billing.ts).
 */
const API_TABLES = {
  auth: authEndpoints, tenant: tenantEndpoints, lock: lockEndpoints, analysis: analysisEndpoints, lockGroup: lockGroupEndpoints,
  lockInformation: lockInformationEndpoints, deviceType: deviceTypeEndpoints, account: accountEndpoints, accountContact: accountContactEndpoints, role: roleEndpoints,
  systemLog: auditLogEndpoints, command: commandEndpoints, uplinkLog: uplinkLogEndpoints, heartbeatLog: heartbeatLogEndpoints,
  alert: alertEndpoints, openRecord: openRecordEndpoints, journal: journalEndpoints, credential: credentialEndpoints,
  offboard: offboardEndpoints, subscription: subscriptionEndpoints, demoReceiver: demoReceiverEndpoints, airSwitch: airSwitchEndpoints,
  airSwitchAlertLog: airSwitchAlertLogEndpoints, wx: billingEndpoints, wxNotify: wechatPayNotifyEndpoints, firmware: firmwareEndpoints, live: liveEndpoints,
  accessSchedule: accessScheduleEndpoints, holidayCalendar: holidayCalendarEndpoints, lockDrift: lockDriftEndpoints, remoteUnlock: remoteUnlockEndpoints,
  notification: notificationEndpoints, apiKey: apiKeyEndpoints, offlineCode: offlineCodeEndpoints,
  twoFactor: twoFactorEndpoints, session: sessionEndpoints, signInHistory: signInHistoryEndpoints, workOrder: workOrderEndpoints, stay: stayEndpoints,
  sso: ssoEndpoints,
};

/** Names every endpoint under `table` (depth first, in declaration order); an endpoint met twice keeps its first name. */
function collect(table: object, prefix: string, into: Map<Endpoint, string>): Map<Endpoint, string> {
  for (const [key, value] of Object.entries(table)) {
    if (isEndpoint(value)) {
      if (!into.has(value)) into.set(value, `${prefix}.${key}`);
    } else if (typeof value === 'object' && value !== null) collect(value, `${prefix}.${key}`, into);
  }
  return into;
}

const names = Object.entries(API_TABLES).reduce((into, [name, table]) => collect(table, name, into), new Map<Endpoint, string>());

/** Every endpoint of the API, once. */
export const apiEndpoints: readonly Endpoint[] = [...names.keys()];

/** An endpoint's name (`lock.list`): unique and stable, the OpenAPI operationId; undefined for an object not in the tables. */
export function endpointName(endpoint: Endpoint): string | undefined {
  return names.get(endpoint);
}

/** System-log actions written by the sign-in service rather than by an endpoint. */
export const SESSION_ACTIONS: Record<string, AuditAction> = {
  'sign-in': { label: { 'zh-CN': '登录', 'en-US': 'Sign in' } },
  'sign-out': { label: { 'zh-CN': '退出登录', 'en-US': 'Sign out' } },
};

/** System-log actions written when WeChat Pay (a notification or reconciliation) changes an order. */
export const PROVIDER_ACTIONS: Record<string, AuditAction> = {
  'wxpay-paid': { label: { 'zh-CN': '微信支付到账', 'en-US': 'WeChat Pay payment received' } },
  'wxpay-refunded': { label: { 'zh-CN': '微信支付退款完成', 'en-US': 'WeChat Pay refund completed' } },
  'wxpay-closed': { label: { 'zh-CN': '订单超时关闭', 'en-US': 'Order closed unpaid' } },
};

/** System-log actions written by the platform's jobs (a backup code issued by rule). */
const JOB_ACTIONS: Record<string, AuditAction> = {
  [BACKUP_CODE_AUTO_ACTION]: { label: { 'zh-CN': '自动发放备用密码', 'en-US': 'Backup code issued automatically' } },
};

/** The system-log `action` of an endpoint: `METHOD path` (stable across languages and label edits). */
export const auditActionKey = (endpoint: Pick<Endpoint, 'method' | 'path'>) => `${endpoint.method} ${endpoint.path}`;

const byKey = new Map<string, AuditAction>([...Object.entries(SESSION_ACTIONS), ...Object.entries(PROVIDER_ACTIONS), ...Object.entries(JOB_ACTIONS)]);
for (const endpoint of apiEndpoints) if (endpoint.action) byKey.set(auditActionKey(endpoint), endpoint.action);

/** The readable name of a system-log `action`; undefined for an action no endpoint declares (older rows). */
export function auditLabel(action: string): LocalizedText | undefined {
  return byKey.get(action)?.label;
}

/**
 * A system-log row's action in `language`: its label, with the sub-action of a credential call
 * (`detail.action`, CREDENTIAL_ACTION_LABELS) after a `·`; the raw action when no endpoint declares it.
 */
export function auditActionText(action: string, detail: Readonly<Record<string, unknown>> | null, language: Language): string {
  const label = auditLabel(action)?.[language];
  if (!label) return action;
  const sub = typeof detail?.action === 'string' ? (CREDENTIAL_ACTION_LABELS[detail.action]?.[language] ?? detail.action) : '';
  return sub ? `${label} · ${sub}` : label;
}

/** What an authority key opens, for the person editing a role. */
export interface AuthorityReach {
  /** Screens it opens (its page and the screens under it outside the menu). */
  pages: LocalizedText[];
  /** Changes it allows (the system log's names of those calls). */
  changes: LocalizedText[];
  /** Reads it opens beyond its own pages' lists: lookups shared with other pages (lock picker, ...). */
  sharedReads: number;
}

/** The screens, changes and shared lookups an authority key opens, from the route and endpoint tables. */
export function authorityReach(key: Authority): AuthorityReach {
  const pages = ROUTES.filter((route) => route.authority === key).map((route) => route.title);
  const granting = apiEndpoints.filter((endpoint) => accessKeys(endpoint.access).includes(key));
  const changes = [...new Map(granting.flatMap((endpoint) => (endpoint.action ? [[endpoint.action.label['en-US'], endpoint.action.label]] : []))).values()];
  const sharedReads = granting.filter((endpoint) => !endpoint.action && accessKeys(endpoint.access).length > 1).length;
  return { pages, changes, sharedReads };
}
