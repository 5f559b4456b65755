/**
 * Single sign-on rules (docs/identity.md "Single sign-on"): per data centre, "a person whose
 * claim C equals V (or, an array such as groups, contains V) gets roles R here". The only writer of
 * sso_rules. The routes run in the tenant transaction (row-level security confines them to the data
 * centre); adding one follows the no-escalation rule of role binding: a non-administrator
 * may only hand out roles whose authorities it holds. Matching at sign-in reads every data centre's
 * rules on the owner connection.
 */
import type { SsoRuleRecord } from '@iot/contract';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { roles, ssoRules } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import type { Principal } from '../../http/context.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import { assertMayGrant } from '../account/guard.js';
import { findRoles } from '../role/repo.js';

/** The data centre's rules, newest first, with the names of their (still existing) roles. */
export async function listRules(tx: Tx): Promise<SsoRuleRecord[]> {
  const rules = await tx.select().from(ssoRules).orderBy(desc(ssoRules.id));
  const named = await findRoles(tx, [...new Set(rules.flatMap((rule) => rule.roleIds))]);
  return rules.map((rule) => ({
    id: rule.id, claim: rule.claim, value: rule.value, createdAt: iso(rule.createdAt),
    roles: named.filter((role) => rule.roleIds.includes(role.id)).map(({ id, name }) => ({ id, name })),
  }));
}

/** Adds a rule in `tenantId`. 400 when a role is not one of the data centre's; ESCALATION beyond the caller's authorities. */
export async function addRule(tx: Tx, principal: Principal, tenantId: number, body: { claim: string; value: string; roleIds: number[] }) {
  const roleIds = [...new Set(body.roleIds)];
  const found = await findRoles(tx, roleIds);
  if (found.length !== roleIds.length) throw fieldError('body.roleIds', '角色不存在于本数据中心', 'a role is not one of this data centre\'s');
  assertMayGrant(principal, found.flatMap((role) => role.authorities));
  const [row] = await tx.insert(ssoRules).values({ tenantId, claim: body.claim, value: body.value, roleIds }).returning({ id: ssoRules.id });
  if (!row) throw new Error('rule not added');
  return { id: row.id };
}

/** Deletes rule `id` of the data centre; NOT_FOUND when it has none such. */
export async function deleteRule(tx: Tx, id: number): Promise<null> {
  const gone = await tx.delete(ssoRules).where(eq(ssoRules.id, id)).returning({ id: ssoRules.id });
  if (gone.length === 0) throw new ApiError('NOT_FOUND');
  return null;
}

/** The value at a dotted claim path (`realm_access.roles`); undefined when absent. */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Whether a claim's value matches a rule's: equal as text, or an array holding it. */
const matches = (claim: unknown, value: string): boolean =>
  Array.isArray(claim) ? claim.some((item) => matches(item, value)) : (typeof claim === 'string' || typeof claim === 'number' || typeof claim === 'boolean') && String(claim) === value;

/** The roles every data centre's matching rules give a person with `claims`: tenant id -> role ids (existing roles of that tenant only). */
export async function grantsFor(system: Executor, claims: Record<string, unknown>): Promise<Map<number, number[]>> {
  const rules = (await system.select().from(ssoRules)).filter((rule) => matches(claimAt(claims, rule.claim), rule.value));
  const grants = new Map<number, number[]>();
  for (const rule of rules) {
    const existing = await system.select({ id: roles.id }).from(roles).where(and(eq(roles.tenantId, rule.tenantId), inArray(roles.id, rule.roleIds)));
    if (existing.length === 0) continue;
    grants.set(rule.tenantId, [...new Set([...(grants.get(rule.tenantId) ?? []), ...existing.map((role) => role.id)])]);
  }
  return grants;
}
