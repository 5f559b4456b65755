/**
 * Every endpoint of the contract, flattened from the per-entity tables: the fuzz test walks it, the
 * system-log page reads action names from it (`auditLabel`).
 */
import type { LocalizedText } from '../i18n.js';
import { accountEndpoints } from './account.js';
import { authEndpoints } from './auth.js';
import { commandEndpoints } from './command.js';
import { credentialEndpoints } from './credential.js';
import type { AuditAction, Endpoint } from './endpoint.js';
import { lockEndpoints } from './lock.js';
import { alertEndpoints } from './lockAlert.js';
import { journalEndpoints } from './lockJournal.js';
import { openRecordEndpoints } from './lockOpenRecord.js';
import { heartbeatLogEndpoints } from './logHeartbeat.js';
import { uplinkLogEndpoints } from './logUpCommand.js';
import { roleEndpoints } from './role.js';
import { systemLogEndpoints } from './systemLog.js';
import { tenantEndpoints } from './tenant.js';

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'response' in value;
}

function collect(table: object, into: Endpoint[]): Endpoint[] {
  for (const value of Object.values(table)) {
    if (isEndpoint(value)) into.push(value);
    else if (typeof value === 'object' && value !== null) collect(value, into);
  }
  return into;
}

/** Every endpoint of the API, once. */
export const apiEndpoints: readonly Endpoint[] = collect([
  authEndpoints, tenantEndpoints, lockEndpoints, accountEndpoints, roleEndpoints, systemLogEndpoints, commandEndpoints,
  uplinkLogEndpoints, heartbeatLogEndpoints, alertEndpoints, openRecordEndpoints, journalEndpoints, credentialEndpoints,
], []);

/** System-log actions written by the sign-in service rather than by an endpoint. */
export const SESSION_ACTIONS: Record<string, AuditAction> = {
  'sign-in': { label: { 'zh-CN': '登录', 'en-US': 'Sign in' } },
  'sign-out': { label: { 'zh-CN': '退出登录', 'en-US': 'Sign out' } },
};

/** The system-log `action` of an endpoint: `METHOD path` (stable across languages and label edits). */
export const auditActionKey = (endpoint: Pick<Endpoint, 'method' | 'path'>) => `${endpoint.method} ${endpoint.path}`;

const byKey = new Map<string, AuditAction>(Object.entries(SESSION_ACTIONS));
for (const endpoint of apiEndpoints) if (endpoint.action) byKey.set(auditActionKey(endpoint), endpoint.action);

/** The readable name of a system-log `action`; undefined for an action no endpoint declares (older rows). */
export function auditLabel(action: string): LocalizedText | undefined {
  return byKey.get(action)?.label;
}
