/**
 * Password sign-in on or off per data centre (docs/identity.md "Single sign-on"). The flag
 * lives on `tenants` (tenant module); this module decides when it may be turned off: only with a
 * provider configured (OIDC_ISSUER) and at least one rule of the data centre giving a role that still
 * exists, so its operators keep a way in (else 409 SSO_RULE_REQUIRED; the same guard refuses deleting
 * the last such rule while it is off). Turning it off ends the password sessions of the data centre's
 * operators (oauth/sso-sessions.ts). Platform administrators always keep the password (break-glass).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { roles, ssoRules } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { endPasswordSessions } from '../oauth/sso-sessions.js';
import { passwordSignInOf, setPasswordSignIn } from '../tenant/settings.js';

/** Whether `tenantId` has a rule giving at least one existing role of it. */
async function hasUsableRule(tx: Executor, tenantId: number): Promise<boolean> {
  const [row] = await tx.select({ id: ssoRules.id }).from(ssoRules)
    .innerJoin(roles, and(eq(roles.tenantId, tenantId), sql`${roles.id} = any(${ssoRules.roleIds})`))
    .where(eq(ssoRules.tenantId, tenantId)).limit(1);
  return row !== undefined;
}

/** Sets password sign-in of `tenantId` in the caller's (tenant) transaction. Throws SSO_RULE_REQUIRED when turning it off would lock its operators out. */
export async function changePasswordSignIn(tx: Executor, tenantId: number, enabled: boolean, ssoConfigured: boolean) {
  if (!enabled && (!ssoConfigured || !(await hasUsableRule(tx, tenantId)))) throw new ApiError('SSO_RULE_REQUIRED');
  await setPasswordSignIn(tx, tenantId, enabled);
  if (!enabled) await endPasswordSessions(tx, tenantId);
  return { passwordSignIn: enabled };
}

/** After a rule's deletion in the caller's transaction: SSO_RULE_REQUIRED (rolling it back) when password sign-in is off and no usable rule is left. */
export async function assertRulesSuffice(tx: Executor, tenantId: number): Promise<void> {
  if (!(await passwordSignInOf(tx, tenantId)) && !(await hasUsableRule(tx, tenantId))) throw new ApiError('SSO_RULE_REQUIRED');
}
