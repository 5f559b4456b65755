/**
 * Role and role-binding queries. Run inside the tenant transaction: row-level security confines roles
 * and bindings to the tenant, so another tenant's role id is simply not found.
 */
import { type Authority, isAuthority, type Page, type ROLE_SORT_FIELDS, type RoleRecord, type SortRequest } from '@iot/contract';
import { asc, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { accountRoles, roles } from '../../db/schema.js';
import { containsPattern, iso, sortOrder } from '../../db/sql.js';
import { emitAll } from '../../events/emit.js';

/** A role's editable fields. */
export interface RoleFields {
  name: string;
  description: string;
  authorities: Authority[];
  /** Undefined on an edit: unchanged. */
  requiresTwoFactor?: boolean;
}

/** A role as the guards see it. */
export interface RoleRow {
  id: number;
  name: string;
  authorities: Authority[];
}

const known = (keys: string[]) => keys.filter(isAuthority);

/** A page of the tenant's roles (by id, or as `sort` asks), each with the number of accounts bound to it. */
export async function listRoles(
  tx: Tx, keyword: string | undefined, current: number, size: number, sort: SortRequest<(typeof ROLE_SORT_FIELDS)[number]> = {},
): Promise<Page<RoleRecord>> {
  const where: SQL | undefined = keyword
    ? or(ilike(roles.name, containsPattern(keyword)), ilike(roles.description, containsPattern(keyword)))
    : undefined;
  const [totalRow] = await tx.select({ n: count() }).from(roles).where(where);
  const accountCount = sql<number>`(select count(*) from ${accountRoles} where ${accountRoles.roleId} = ${roles.id})`;
  const rows = await tx.select({
    id: roles.id, name: roles.name, description: roles.description, authorities: roles.authorities, requiresTwoFactor: roles.requiresTwoFactor, createdAt: roles.createdAt,
    accountCount: accountCount.mapWith(Number),
  }).from(roles).where(where)
    .orderBy(...sortOrder(sort, { name: roles.name, accountCount, createdAt: roles.createdAt }, roles.id, [asc(roles.id)])).limit(size).offset((current - 1) * size);
  const records = rows.map((row) => ({ ...row, authorities: known(row.authorities), createdAt: iso(row.createdAt) }));
  return { records, total: totalRow?.n ?? 0, current, size };
}

/** The tenant's roles among `ids`. */
export async function findRoles(tx: Tx, ids: number[]): Promise<RoleRow[]> {
  if (ids.length === 0) return [];
  const rows = await tx.select({ id: roles.id, name: roles.name, authorities: roles.authorities }).from(roles).where(inArray(roles.id, ids));
  return rows.map((row) => ({ ...row, authorities: known(row.authorities) }));
}

/** Creates a role in `tenantId`; returns its id. */
export async function insertRole(tx: Tx, tenantId: number, fields: RoleFields): Promise<number> {
  const [row] = await tx.insert(roles).values({ tenantId, ...fields }).returning({ id: roles.id });
  if (!row) throw new Error('role not created');
  return row.id;
}

/** Emits `role.changed` for the role rows returned (docs/events.md): principals of that data centre are read again. */
async function rolesChanged(tx: Tx, rows: readonly { id: number; tenantId: number }[]): Promise<void> {
  await emitAll(tx, rows.map((row) => ({ name: 'role.changed', payload: { tenantId: row.tenantId, roleId: row.id } })));
}

/** Replaces a role's fields. */
export async function updateRole(tx: Tx, id: number, fields: RoleFields): Promise<void> {
  await rolesChanged(tx, await tx.update(roles).set(fields).where(eq(roles.id, id)).returning({ id: roles.id, tenantId: roles.tenantId }));
}

/** Deletes a role (its bindings go with it). */
export async function deleteRole(tx: Tx, id: number): Promise<void> {
  await rolesChanged(tx, await tx.delete(roles).where(eq(roles.id, id)).returning({ id: roles.id, tenantId: roles.tenantId }));
}
