/**
 * Roles (角色权限): create, edit and delete a data centre's roles, each in one tenant transaction.
 * No escalation (modules/account/guard.ts): a non-administrator creates, edits and deletes only roles
 * whose keys it holds, before and after the change. Editing or deleting a role needs no revocation:
 * authorities are read afresh on every request. Binding roles to accounts: bindings.ts.
 */
import type { roleAddBody, roleUpdateBody } from '@iot/contract';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { ApiError, conflictError } from '../../http/api-error.js';
import type { AccountContext } from '../account/accounts.js';
import { assertMayGrant } from '../account/guard.js';
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
