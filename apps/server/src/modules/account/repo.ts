/**
 * Login-account queries. Run inside the tenant transaction: row-level security (0003_account_rls.sql)
 * shows administrators and the tenant's own accounts only, and role bindings of the tenant only.
 */
import { ACCOUNT_TYPE_ADMIN, ACCOUNT_TYPE_OPERATOR, type ACCOUNT_SORT_FIELDS, type AccountRecord, isAuthority, type Page, type SortRequest } from '@iot/contract';
import { and, asc, count, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { accountRoles, accountTenants, accounts, roles, tenants, twoFactors } from '../../db/schema.js';
import { containsPattern, iso, sortOrder } from '../../db/sql.js';
import { emit } from '../../events/emit.js';

/** Emits `account.changed` (docs/events.md): the account's cached principals are read again on every instance. */
const accountChanged = (tx: Tx, accountId: number) => emit(tx, 'account.changed', { tenantId: null, accountId });

/** What the guards need to know about an account. */
export interface AccountRow {
  id: number;
  username: string;
  type: number;
  enabled: boolean;
}

/** The account with `id` if the tenant may see it. */
export async function findAccount(tx: Tx, id: number): Promise<AccountRow | undefined> {
  const [row] = await tx.select({ id: accounts.id, username: accounts.username, type: accounts.type, enabled: accounts.enabled })
    .from(accounts).where(eq(accounts.id, id));
  return row;
}

/** A page of the accounts the tenant sees (by id, or as `sort` asks), with their tenants, their roles in this tenant and whether two-factor is on. */
export async function listAccounts(
  tx: Tx, keyword: string | undefined, current: number, size: number, sort: SortRequest<(typeof ACCOUNT_SORT_FIELDS)[number]> = {},
): Promise<Page<AccountRecord>> {
  const where = keyword ? ilike(accounts.username, containsPattern(keyword)) : undefined;
  const [totalRow] = await tx.select({ n: count() }).from(accounts).where(where);
  const rows = await tx.select({
    id: accounts.id, username: accounts.username, type: accounts.type, enabled: accounts.enabled,
    homeTenantId: accounts.homeTenantId, createdAt: accounts.createdAt,
    twoFactorEnabled: sql<boolean>`exists (select 1 from ${twoFactors} where ${twoFactors.accountId} = ${accounts.id} and ${twoFactors.enabledAt} is not null)`,
  }).from(accounts).where(where)
    .orderBy(...sortOrder(sort, { username: accounts.username, createdAt: accounts.createdAt }, accounts.id, [asc(accounts.id)])).limit(size).offset((current - 1) * size);
  const ids = rows.map((row) => row.id);
  const memberships = ids.length === 0 ? [] : await tx.select({ accountId: accountTenants.accountId, id: tenants.id, name: tenants.name })
    .from(accountTenants).innerJoin(tenants, eq(tenants.id, accountTenants.tenantId))
    .where(inArray(accountTenants.accountId, ids)).orderBy(asc(tenants.id));
  const bindings = ids.length === 0 ? [] : await tx.select({ accountId: accountRoles.accountId, id: roles.id, name: roles.name })
    .from(accountRoles).innerJoin(roles, eq(roles.id, accountRoles.roleId))
    .where(inArray(accountRoles.accountId, ids)).orderBy(asc(roles.id));
  const records = rows.map((row) => ({
    ...row,
    createdAt: iso(row.createdAt),
    tenants: memberships.filter((m) => m.accountId === row.id).map(({ id, name }) => ({ id, name })),
    roles: bindings.filter((b) => b.accountId === row.id).map(({ id, name }) => ({ id, name })),
  }));
  return { records, total: totalRow?.n ?? 0, current, size };
}

/**
 * Creates an operator (type 1) in `tenantId`. The id is drawn first because the new row becomes
 * visible (and returnable) only once its membership exists.
 */
export async function insertOperator(tx: Tx, username: string, passwordHash: string, tenantId: number): Promise<number> {
  const drawn = await tx.execute<{ id: number }>(sql`select nextval(pg_get_serial_sequence('accounts', 'id'))::integer as id`);
  const id = Number((drawn as unknown as { rows: { id: number }[] }).rows[0]?.id);
  await tx.insert(accounts).values({ id, username, passwordHash, type: ACCOUNT_TYPE_OPERATOR, homeTenantId: tenantId });
  await tx.insert(accountTenants).values({ accountId: id, tenantId });
  return id;
}

/**
 * Lets account `id` work in `tenantIds` too: each membership is inserted with the transaction's tenant
 * set to that data centre (row-level security lets a tenant write only its own memberships), then the
 * transaction's tenant is `back` again.
 */
export async function addMemberships(tx: Tx, id: number, tenantIds: readonly number[], back: number): Promise<void> {
  for (const tenantId of tenantIds) {
    await tx.execute(sql`select set_config('app.tenant_id', ${String(tenantId)}, true)`);
    await tx.insert(accountTenants).values({ accountId: id, tenantId });
  }
  if (tenantIds.length > 0) await tx.execute(sql`select set_config('app.tenant_id', ${String(back)}, true)`);
  if (tenantIds.length > 0) await accountChanged(tx, id);
}


/** Replaces the password hash. */
export async function setPasswordHash(tx: Tx, id: number, passwordHash: string): Promise<void> {
  await tx.update(accounts).set({ passwordHash, updatedAt: sql`now()` }).where(eq(accounts.id, id));
  await accountChanged(tx, id);
}

/** Enables or disables the account. */
export async function setEnabled(tx: Tx, id: number, enabled: boolean): Promise<void> {
  await tx.update(accounts).set({ enabled, updatedAt: sql`now()` }).where(eq(accounts.id, id));
  await accountChanged(tx, id);
}

/** Enabled administrators, locked until the transaction ends (concurrent removals queue up). */
export async function lockEnabledAdmins(tx: Tx): Promise<number[]> {
  const rows = await tx.select({ id: accounts.id }).from(accounts)
    .where(and(eq(accounts.type, ACCOUNT_TYPE_ADMIN), eq(accounts.enabled, true))).orderBy(asc(accounts.id)).for('update');
  return rows.map((row) => row.id);
}

/**
 * Removes the account from `tenantId` (membership and role bindings there). The account itself is
 * deleted when it belongs to no other tenant, and always when it is an administrator; it is deleted
 * before its membership goes, while the tenant still sees it.
 */
export async function removeAccount(tx: Tx, account: AccountRow, tenantId: number): Promise<'deleted' | 'removed'> {
  await accountChanged(tx, account.id);
  const [elsewhere] = await tx.select({ n: count() }).from(accountTenants)
    .where(and(eq(accountTenants.accountId, account.id), ne(accountTenants.tenantId, tenantId)));
  if (account.type === ACCOUNT_TYPE_ADMIN || (elsewhere?.n ?? 0) === 0) {
    const deleted = await tx.delete(accounts).where(eq(accounts.id, account.id)).returning({ id: accounts.id });
    if (deleted.length !== 1) throw new Error(`account ${account.id} could not be deleted`);
    return 'deleted';
  }
  await tx.delete(accountRoles).where(and(eq(accountRoles.accountId, account.id), eq(accountRoles.tenantId, tenantId)));
  await tx.delete(accountTenants).where(and(eq(accountTenants.accountId, account.id), eq(accountTenants.tenantId, tenantId)));
  return 'removed';
}

/** Roles bound to the account in this tenant. */
export async function boundRoles(tx: Tx, accountId: number): Promise<{ id: number; name: string }[]> {
  return tx.select({ id: roles.id, name: roles.name }).from(accountRoles).innerJoin(roles, eq(roles.id, accountRoles.roleId))
    .where(eq(accountRoles.accountId, accountId)).orderBy(asc(roles.id));
}

/** Every role of the tenant, by id, with known authority keys only. */
export async function tenantRoles(tx: Tx) {
  const rows = await tx.select({ id: roles.id, name: roles.name, description: roles.description, authorities: roles.authorities })
    .from(roles).orderBy(asc(roles.id));
  return rows.map((row) => ({ ...row, authorities: row.authorities.filter(isAuthority) }));
}

/**
 * Makes `grants` (data centre -> role ids) the account's data centres and roles everywhere (single
 * sign-on's rules, modules/sso; on the owner connection, which crosses data centres).
 */
export async function replaceGrants(tx: Tx, id: number, grants: ReadonlyMap<number, readonly number[]>): Promise<void> {
  await tx.delete(accountRoles).where(eq(accountRoles.accountId, id));
  await tx.delete(accountTenants).where(eq(accountTenants.accountId, id));
  const tenantIds = [...grants.keys()];
  if (tenantIds.length > 0) await tx.insert(accountTenants).values(tenantIds.map((tenantId) => ({ accountId: id, tenantId })));
  const bindings = [...grants].flatMap(([tenantId, roleIds]) => roleIds.map((roleId) => ({ accountId: id, roleId, tenantId })));
  if (bindings.length > 0) await tx.insert(accountRoles).values(bindings);
  await accountChanged(tx, id);
}

/**
 * Makes `roleIds` the account's roles in `tenantId` (绑定角色, role/bindings.ts): the account module
 * owns an account's memberships and role bindings; the role module owns the roles.
 */
export async function replaceBindings(tx: Tx, accountId: number, tenantId: number, roleIds: readonly number[]): Promise<void> {
  await tx.delete(accountRoles).where(and(eq(accountRoles.accountId, accountId), eq(accountRoles.tenantId, tenantId)));
  if (roleIds.length > 0) await tx.insert(accountRoles).values(roleIds.map((roleId) => ({ accountId, roleId, tenantId })));
  await accountChanged(tx, accountId);
}
