/**
 * The no-escalation rules (nobody grants more than they hold), shared by accounts, roles and bindings:
 * - administrators (type 0) may do everything below, except the self and last-administrator rules;
 * - a non-administrator grants only authority keys it holds in the tenant (roles it creates, updates,
 *   deletes or binds hold no other key);
 * - a non-administrator manages (password, enabled state, deletion, roles) only operators whose
 *   authorities, in every tenant, it holds itself: never an administrator, never a stronger account;
 * - nobody deletes or disables the last enabled administrator, nor themselves; nobody binds their own roles.
 */
import { ACCOUNT_TYPE_ADMIN, type Authority, isAuthority } from '@iot/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { accountRoles, roles } from '../../db/schema.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { tenantsOf } from '../oauth/principal.js';
import type { Principal } from '../../http/context.js';
import { type AccountRow, findAccount, lockEnabledAdmins } from './repo.js';

/**
 * The account's authorities in every tenant (owner connection: bindings of other tenants are invisible
 * inside a tenant transaction). Read before the tenant transaction opens.
 */
export async function authoritiesEverywhere(system: Db, accountId: number): Promise<Authority[]> {
  const rows = await system.select({ authorities: roles.authorities }).from(accountRoles)
    .innerJoin(roles, eq(roles.id, accountRoles.roleId)).where(eq(accountRoles.accountId, accountId));
  return [...new Set(rows.flatMap((row) => row.authorities).filter(isAuthority))];
}

/**
 * Before adding an account that may work in `tenantIds` too (owner connection): each must be a data
 * centre the caller may use (400 on body.tenantIds otherwise; administrators: any existing one) where a
 * non-administrator holds LOGIN_ACCOUNT (ESCALATION otherwise).
 */
export async function assertMayAddIn(system: Db, principal: Principal, tenantIds: readonly number[]): Promise<void> {
  if (tenantIds.length === 0) return;
  const usable = new Set((await tenantsOf(system, principal.accountId, principal.type)).map((tenant) => tenant.id));
  const unusable = tenantIds.filter((tenantId) => !usable.has(tenantId));
  if (unusable.length > 0) {
    throw fieldError('body.tenantIds', `不能使用的数据中心：${unusable.join(', ')}`, `Data centres you cannot use: ${unusable.join(', ')}`);
  }
  if (principal.type === ACCOUNT_TYPE_ADMIN) return;
  const rows = await system.select({ tenantId: accountRoles.tenantId, authorities: roles.authorities }).from(accountRoles)
    .innerJoin(roles, eq(roles.id, accountRoles.roleId)).where(and(eq(accountRoles.accountId, principal.accountId), inArray(accountRoles.tenantId, [...tenantIds])));
  const managing = new Set(rows.filter((row) => row.authorities.includes('LOGIN_ACCOUNT')).map((row) => row.tenantId));
  if (tenantIds.some((tenantId) => !managing.has(tenantId))) throw new ApiError('ESCALATION');
}

/** Throws ESCALATION unless the caller is an administrator or holds every key in `keys`. */
export function assertMayGrant(principal: Principal, keys: readonly string[]): void {
  if (principal.type === ACCOUNT_TYPE_ADMIN) return;
  if (keys.some((key) => !isAuthority(key) || !principal.authorities.has(key))) throw new ApiError('ESCALATION');
}

/** Throws ESCALATION when a non-administrator reaches for an administrator or a stronger account. */
export function assertMayManage(principal: Principal, target: AccountRow, targetAuthorities: readonly Authority[]): void {
  if (principal.type === ACCOUNT_TYPE_ADMIN) return;
  if (target.type === ACCOUNT_TYPE_ADMIN) throw new ApiError('ESCALATION');
  assertMayGrant(principal, targetAuthorities);
}

/**
 * The account `id` as the tenant sees it, checked against the management rules: NOT_FOUND when the
 * tenant does not see it, ESCALATION when the caller may not manage it.
 */
export async function loadManagedAccount(tx: Tx, principal: Principal, id: number, targetAuthorities: readonly Authority[]): Promise<AccountRow> {
  const target = await findAccount(tx, id);
  if (!target) throw new ApiError('NOT_FOUND');
  assertMayManage(principal, target, targetAuthorities);
  return target;
}

/**
 * Before deleting or disabling `target`: LAST_ADMIN when it is the last enabled administrator,
 * SELF_ACTION when it is the caller. Locks the enabled administrators until the transaction ends.
 */
export async function assertMayRemove(tx: Tx, principal: Principal, target: AccountRow): Promise<void> {
  if (target.type === ACCOUNT_TYPE_ADMIN && target.enabled) {
    const admins = await lockEnabledAdmins(tx);
    if (admins.filter((id) => id !== target.id).length === 0) throw new ApiError('LAST_ADMIN');
  }
  if (target.id === principal.accountId) throw new ApiError('SELF_ACTION');
}
