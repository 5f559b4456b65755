/**
 * Single sign-on (docs/identity.md "Single sign-on"): the provider's checked answer
 * (provider.ts) -> the data centres and roles the rules give the person (rules.ts; none: refused with
 * SSO_NO_RULE) -> the account linked to the provider's (issuer, subject), created at the first sign-in
 * (an operator named by OIDC_USERNAME_CLAIM, else email, else the subject; a name already taken gets
 * a short suffix) -> its data centres and roles replaced by the rules' at every sign-in, in one
 * transaction with the link -> the token, or a two-factor challenge when the account has it on (the
 * provider's own MFA is not known here, so the platform's second factor still counts). Accounts are
 * never linked to an existing password account by name or email: whoever controls a provider account
 * with that name would take it over. Every attempt is written to the system log and, once the account
 * exists, to its sign-in history with method `sso`. SSO accounts have no usable password.
 */
import { createHash } from 'node:crypto';
import { TWO_FACTOR_CHALLENGE_S } from '@iot/contract';
import { and, eq } from 'drizzle-orm';
import { accounts, ssoLinks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { insertOperator, replaceGrants } from '../account/repo.js';
import { auditOf, type SignInContext, tokenOf } from '../oauth/attempts.js';
import { issueChallenge } from '../twoFactor/challenge.js';
import { isTwoFactorOn } from '../twoFactor/check.js';
import type { Claims } from './provider.js';
import { grantsFor } from './rules.js';

/** Stored as the password hash of SSO accounts: not an argon2 hash, so no password ever matches. */
const NO_PASSWORD = '!sso';
const USERNAME_MAX = 64;

/** The username a new account gets from `claims` (account rules: letters, digits, `_ . @ -`). */
export function usernameOf(claims: Claims, claim: string): string {
  const raw = [claims[claim], claims.email, claims.sub].find((value) => typeof value === 'string' && value.trim() !== '') as string;
  const name = raw.trim().replace(/[^\p{L}\p{N}_.@-]/gu, '_').slice(0, USERNAME_MAX);
  return name.length >= 2 ? name : `sso_${name}`;
}

/** `name`, or `name-<6 hex of the subject>` when another account has it. */
async function freeUsername(ctx: SignInContext, name: string, claims: Claims): Promise<string> {
  const [taken] = await ctx.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.username, name));
  if (!taken) return name;
  const suffix = createHash('sha256').update(`${claims.iss} ${claims.sub}`).digest('hex').slice(0, 6);
  return `${name.slice(0, USERNAME_MAX - 7)}-${suffix}`;
}

/**
 * Signs in the person of `claims` (already checked by the provider). Throws ApiError SSO_NO_RULE,
 * ACCOUNT_DISABLED. `usernameClaim`: OIDC_USERNAME_CLAIM.
 */
export async function ssoSignIn(ctx: SignInContext, claims: Claims, usernameClaim: string) {
  const { db } = ctx;
  const grants = await grantsFor(db, claims);
  const [link] = await db.select({ accountId: ssoLinks.accountId, username: accounts.username, enabled: accounts.enabled }).from(ssoLinks)
    .innerJoin(accounts, eq(accounts.id, ssoLinks.accountId)).where(and(eq(ssoLinks.issuer, claims.iss), eq(ssoLinks.subject, claims.sub)));
  const username = link?.username ?? (await freeUsername(ctx, usernameOf(claims, usernameClaim), claims));
  const audit = auditOf(ctx, username, 'sso');
  if (grants.size === 0) {
    await audit('SSO_NO_RULE', link?.accountId ?? null);
    throw new ApiError('SSO_NO_RULE');
  }
  if (link && !link.enabled) {
    await audit('ACCOUNT_DISABLED', link.accountId);
    throw new ApiError('ACCOUNT_DISABLED');
  }
  const home = grants.has(ctx.tenantId) ? ctx.tenantId : (grants.keys().next().value as number);
  const accountId = await db.transaction(async (tx) => {
    const id = link?.accountId ?? (await insertOperator(tx, username, NO_PASSWORD, home));
    if (!link) await tx.insert(ssoLinks).values({ accountId: id, issuer: claims.iss, subject: claims.sub });
    await replaceGrants(tx, id, grants);
    return id;
  });
  if (await isTwoFactorOn(db, accountId)) {
    await audit('TWO_FACTOR_REQUIRED', accountId);
    return { twoFactorRequired: true as const, challenge: issueChallenge(ctx.config, accountId), expires_in: TWO_FACTOR_CHALLENGE_S };
  }
  const token = await tokenOf(ctx, accountId, { issuer: claims.iss, sid: typeof claims.sid === 'string' ? claims.sid : null });
  await audit('success', accountId);
  return token;
}
