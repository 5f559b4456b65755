/**
 * Who a signed-in account is within a tenant: its tenants, and its authorities there (the union of
 * its roles' authorities; every key for administrators, spec §6).
 */
import { ACCOUNT_TYPE_ADMIN, AUTHORITIES, type Authority, isAuthority } from '@iot/contract';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountRoles, accountTenants, roles, tenants } from '../../db/schema.js';

/** Tenants the account may work in: every tenant for administrators. */
export async function tenantsOf(db: Db, accountId: number, type: number): Promise<{ id: number; name: string }[]> {
  if (type === ACCOUNT_TYPE_ADMIN) return db.select({ id: tenants.id, name: tenants.name }).from(tenants).orderBy(asc(tenants.id));
  return db.select({ id: tenants.id, name: tenants.name }).from(accountTenants)
    .innerJoin(tenants, eq(tenants.id, accountTenants.tenantId))
    .where(eq(accountTenants.accountId, accountId)).orderBy(asc(tenants.id));
}

/** True when the account may use `tenantId`. */
export async function mayUseTenant(db: Db, accountId: number, type: number, tenantId: number): Promise<boolean> {
  if (type === ACCOUNT_TYPE_ADMIN) {
    const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
    return row !== undefined;
  }
  const [row] = await db.select({ id: accountTenants.tenantId }).from(accountTenants)
    .where(and(eq(accountTenants.accountId, accountId), eq(accountTenants.tenantId, tenantId)));
  return row !== undefined;
}

/** Authorities of the account in `tenantId`, in menu order. */
export async function authoritiesOf(db: Db, accountId: number, type: number, tenantId: number): Promise<Authority[]> {
  if (type === ACCOUNT_TYPE_ADMIN) return [...AUTHORITIES];
  const rows = await db.select({ authorities: roles.authorities }).from(accountRoles)
    .innerJoin(roles, eq(roles.id, accountRoles.roleId))
    .where(and(eq(accountRoles.accountId, accountId), eq(accountRoles.tenantId, tenantId)));
  const granted = new Set(rows.flatMap((row) => row.authorities).filter(isAuthority));
  return AUTHORITIES.filter((key) => granted.has(key));
}
