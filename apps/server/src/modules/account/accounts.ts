/**
 * Login accounts (登录账号). Every write is one tenant transaction; a change of password or
 * enabled state revokes the account's live tokens in the same transaction. New passwords arrive
 * RSA-OAEP encrypted like at sign-in and are stored as argon2id hashes. The API creates operators
 * (type 1) only; administrators come from the deployment (seed, ADMIN_PASSWORD).
 */
import { PASSWORD_MAX, PASSWORD_MIN, type accountAddBody, type accountEnableBody, type accountPasswordBody } from '@iot/contract';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { ApiError, conflictError, fieldError } from '../../http/api-error.js';
import type { Principal } from '../../http/context.js';
import { decryptPassword, findKeyPair } from '../oauth/keys.js';
import { hashPassword } from '../oauth/passwords.js';
import { revokeAccount } from '../oauth/tokens.js';
import { assertMayAddIn, assertMayRemove, authoritiesEverywhere, loadManagedAccount } from './guard.js';
import { addMemberships, boundRoles, findAccount, insertOperator, removeAccount, setEnabled, setPasswordHash, tenantRoles } from './repo.js';

/**
 * What follows an account's creation in its transaction (wiring.ts newAccountFollowers): the roles it
 * was created with are bound there (role/bindings.ts); a refusal rolls the creation back.
 */
export type NewAccountFollower = (tx: Tx, ctx: AccountContext, accountId: number, body: z.output<typeof accountAddBody>) => Promise<void>;

/** What account operations need from the request. */
export interface AccountContext {
  system: Db;
  principal: Principal;
  tenantId: number;
  inTenant<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

/** Decrypts and checks a new password; KEY_EXPIRED or 400 on body.password. */
export async function decryptNewPassword(system: Db, ciphertext: string, keyId: string): Promise<string> {
  const pair = await findKeyPair(system, keyId);
  if (!pair) throw new ApiError('KEY_EXPIRED');
  const password = decryptPassword(pair, ciphertext);
  if (password === undefined) throw fieldError('body.password', '密码未按 RSA-OAEP 加密', 'The password is not RSA-OAEP encrypted');
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw fieldError('body.password', `密码长度须为 ${PASSWORD_MIN}-${PASSWORD_MAX} 位`, `The password must have ${PASSWORD_MIN}-${PASSWORD_MAX} characters`);
  }
  return password;
}

/**
 * Creates an operator in the request's tenant, with its roles there (`followers`, wiring.ts) and its further data
 * centres (body.tenantIds: 400 on body.tenantIds for a data centre the caller may not use, ESCALATION
 * where it lacks LOGIN_ACCOUNT), all in one transaction; CONFLICT when the username is taken.
 */
export async function addAccount(ctx: AccountContext, body: z.output<typeof accountAddBody>, followers: readonly NewAccountFollower[]): Promise<{ id: number }> {
  const elsewhere = [...new Set(body.tenantIds ?? [])].filter((tenantId) => tenantId !== ctx.tenantId);
  await assertMayAddIn(ctx.system, ctx.principal, elsewhere);
  const passwordHash = await hashPassword(await decryptNewPassword(ctx.system, body.password, body.keyId));
  try {
    return {
      id: await ctx.inTenant(async (tx) => {
        const id = await insertOperator(tx, body.username, passwordHash, ctx.tenantId);
        await addMemberships(tx, id, elsewhere, ctx.tenantId);
        for (const follow of followers) await follow(tx, ctx, id, body);
        return id;
      }),
    };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflictError('body.username', '该用户名已被使用', 'This username is already taken');
    throw error;
  }
}

/** Sets another password and revokes the account's tokens. */
export async function changePassword(ctx: AccountContext, body: z.output<typeof accountPasswordBody>): Promise<null> {
  const passwordHash = await hashPassword(await decryptNewPassword(ctx.system, body.password, body.keyId));
  const targetAuthorities = await authoritiesEverywhere(ctx.system, body.id);
  await ctx.inTenant(async (tx) => {
    await loadManagedAccount(tx, ctx.principal, body.id, targetAuthorities);
    await setPasswordHash(tx, body.id, passwordHash);
    await revokeAccount(tx, body.id, 'passwordChanged');
  });
  return null;
}

/** Enables or disables an account; disabling revokes its tokens (a disabled account has no live token to revoke on enabling). */
export async function enableAccount(ctx: AccountContext, body: z.output<typeof accountEnableBody>): Promise<null> {
  const targetAuthorities = await authoritiesEverywhere(ctx.system, body.id);
  await ctx.inTenant(async (tx) => {
    const target = await loadManagedAccount(tx, ctx.principal, body.id, targetAuthorities);
    if (target.enabled === body.enabled) return;
    if (!body.enabled) await assertMayRemove(tx, ctx.principal, target);
    await setEnabled(tx, body.id, body.enabled);
    if (!body.enabled) await revokeAccount(tx, body.id, 'disabled');
  });
  return null;
}

/** Removes an account from the tenant (deletes it when it has no tenant left, or is an administrator). */
export async function deleteAccount(ctx: AccountContext, id: number): Promise<null> {
  const targetAuthorities = await authoritiesEverywhere(ctx.system, id);
  await ctx.inTenant(async (tx) => {
    const target = await loadManagedAccount(tx, ctx.principal, id, targetAuthorities);
    await assertMayRemove(tx, ctx.principal, target);
    await removeAccount(tx, target, ctx.tenantId);
  });
  return null;
}

/** The account's roles in the tenant and every role of the tenant; NOT_FOUND for an unseen account. */
export async function accountRoles(ctx: AccountContext, accountId: number) {
  return ctx.inTenant(async (tx) => {
    if (!(await findAccount(tx, accountId))) throw new ApiError('NOT_FOUND');
    return { accountId, bound: await boundRoles(tx, accountId), roles: await tenantRoles(tx) };
  });
}
