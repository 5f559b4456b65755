/**
 * Roles (角色权限) and role bindings (绑定角色). Every write is one tenant transaction.
 * No escalation (modules/account/guard.ts): a non-administrator creates, edits, deletes and binds only
 * roles whose keys it holds, before and after the change; nobody binds their own roles; binding
 * revokes the account's live tokens in the same transaction. Editing or deleting a role needs no
 * revocation: authorities are read afresh on every request.
 */
import { ACCOUNT_TYPE_ADMIN, type roleAddBody, type roleBindBody, type roleUpdateBody } from '@iot/contract';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { ApiError, conflictError } from '../../http/api-error.js';
import type { AccountContext } from '../account/service.js';
import { assertMayGrant, authoritiesEverywhere, loadManagedAccount } from '../account/guard.js';
import { revokeAccount } from '../oauth/tokens.js';
import * as repo from './repo.js';

/** Runs a write; a duplicate role name in the tenant becomes 409 CONFLICT. */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflictError('body.name', '本数据中心已有同名角色', 'A role of this name already exists in this data centre');
    throw error;
  }
}

/** The role `id` of the tenant, which the caller must be allowed to manage. */
async function managedRole(ctx: AccountContext, tx: Tx, id: number) {
  const [role] = await repo.findRoles(tx, [id]);
  if (!role) throw new ApiError('NOT_FOUND');
  assertMayGrant(ctx.principal, role.authorities);
  return role;
}

/** Creates a role in the tenant. */
export async function addRole(ctx: AccountContext, body: z.output<typeof roleAddBody>): Promise<{ id: number }> {
  assertMayGrant(ctx.principal, body.authorities);
  return uniqueName(async () => ({ id: await ctx.inTenant((tx) => repo.insertRole(tx, ctx.tenantId, body)) }));
}

/** Replaces a role's name, description and authorities. */
export async function updateRole(ctx: AccountContext, body: z.output<typeof roleUpdateBody>): Promise<null> {
  assertMayGrant(ctx.principal, body.authorities);
  const { id, ...fields } = body;
  await uniqueName(() => ctx.inTenant(async (tx) => {
    await managedRole(ctx, tx, id);
    await repo.updateRole(tx, id, fields);
  }));
  return null;
}

/** Deletes a role of the tenant. */
export async function deleteRole(ctx: AccountContext, id: number): Promise<null> {
  await ctx.inTenant(async (tx) => {
    await managedRole(ctx, tx, id);
    await repo.deleteRole(tx, id);
  });
  return null;
}

/**
 * Binds `roleIds` (the tenant's) to a just-created account in the same transaction: FORBIDDEN without
 * BINDING_ROLES, NOT_FOUND for a role the tenant lacks, ESCALATION beyond the caller's own keys.
 */
export async function bindNewAccount(tx: Tx, ctx: AccountContext, accountId: number, roleIds: number[]): Promise<void> {
  if (roleIds.length === 0) return;
  if (ctx.principal.type !== ACCOUNT_TYPE_ADMIN && !ctx.principal.authorities.has('BINDING_ROLES')) throw new ApiError('FORBIDDEN');
  const found = await repo.findRoles(tx, roleIds);
  if (found.length !== new Set(roleIds).size) throw new ApiError('NOT_FOUND');
  assertMayGrant(ctx.principal, found.flatMap((role) => role.authorities));
  await repo.replaceBindings(tx, accountId, ctx.tenantId, [...new Set(roleIds)]);
}

/** Replaces the account's roles in the tenant and revokes its tokens. */
export async function bindRoles(ctx: AccountContext, body: z.output<typeof roleBindBody>): Promise<null> {
  if (body.accountId === ctx.principal.accountId) throw new ApiError('SELF_ACTION');
  const targetAuthorities = await authoritiesEverywhere(ctx.system, body.accountId);
  await ctx.inTenant(async (tx) => {
    await loadManagedAccount(tx, ctx.principal, body.accountId, targetAuthorities);
    const found = await repo.findRoles(tx, body.roleIds);
    if (found.length !== body.roleIds.length) throw new ApiError('NOT_FOUND');
    assertMayGrant(ctx.principal, found.flatMap((role) => role.authorities));
    await repo.replaceBindings(tx, body.accountId, ctx.tenantId, body.roleIds);
    await revokeAccount(tx, body.accountId, 'rolesChanged');
  });
  return null;
}
