/**
 * Role bindings (绑定角色): which of a data centre's roles an account holds there, each change in one
 * tenant transaction. No escalation (modules/account/guard.ts): a non-administrator binds only roles
 * whose keys it holds; nobody binds their own roles; binding revokes the account's live tokens in the
 * same transaction.
 */
import { ACCOUNT_TYPE_ADMIN, type roleBindBody } from '@iot/contract';
import type { z } from 'zod';
import type { Tx } from '../../db/client.js';
import { ApiError } from '../../http/api-error.js';
import type { AccountContext } from '../account/accounts.js';
import { assertMayGrant, authoritiesEverywhere, loadManagedAccount } from '../account/guard.js';
import { replaceBindings } from '../account/repo.js';
import { revokeAccount } from '../oauth/tokens.js';
import * as repo from './repo.js';

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
  await replaceBindings(tx, accountId, ctx.tenantId, [...new Set(roleIds)]);
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
    await replaceBindings(tx, body.accountId, ctx.tenantId, body.roleIds);
    await revokeAccount(tx, body.accountId, 'rolesChanged');
  });
  return null;
}
