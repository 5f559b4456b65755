/**
 * Who a signed-in account is within a tenant: its tenants, and its authorities there (the union of
 * its roles' authorities; every key for administrators, spec §6). Membership and the roles' grants
 * are read together with the token (tokens.ts lookupToken) and cached per process (principal-cache.ts).
 */
import { ACCOUNT_TYPE_ADMIN, AUTHORITIES, type Authority, isAuthority } from '@iot/contract';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountTenants, tenants } from '../../db/schema.js';

/** Tenants the account may work in: every tenant for administrators. */
export async function tenantsOf(db: Db, accountId: number, type: number): Promise<{ id: number; name: string }[]> {
  if (type === ACCOUNT_TYPE_ADMIN) return db.select({ id: tenants.id, name: tenants.name }).from(tenants).orderBy(asc(tenants.id));
  return db.select({ id: tenants.id, name: tenants.name }).from(accountTenants)
    .innerJoin(tenants, eq(tenants.id, accountTenants.tenantId))
    .where(eq(accountTenants.accountId, accountId)).orderBy(asc(tenants.id));
}

/** Authorities held by an account of `type` whose roles grant `granted`, in menu order (every key for administrators). */
export function authoritiesFrom(type: number, granted: readonly string[]): Authority[] {
  if (type === ACCOUNT_TYPE_ADMIN) return [...AUTHORITIES];
  const set = new Set(granted.filter(isAuthority));
  return AUTHORITIES.filter((key) => set.has(key));
}
