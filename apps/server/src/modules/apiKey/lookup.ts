/**
 * Reads a presented API key: in one query on the owner connection (the key names its data
 * centre, so no tenant is set yet), the key's row by its prefix and hash (the current one, or the one
 * replaced by a rotation while its grace lasts), its creator and the creator's current membership and
 * authorities in the key's data centre (as tokens.ts reads a session's). Writes nothing but the
 * last-use time (touchApiKey).
 */
import { ACCOUNT_TYPE_ADMIN, ACCOUNT_TYPE_OPERATOR, type Authority } from '@iot/contract';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { apiKeys } from '../../db/schema-api-key.js';
import { accountRoles, accountTenants, accounts, roles } from '../../db/schema-identity.js';
import { authoritiesFrom } from '../oauth/principal.js';

/** A valid key as a principal of its data centre. */
export interface KeyPrincipal {
  apiKeyId: number;
  name: string;
  tenantId: number;
  accountId: number;
  /** The creator's user name. */
  username: string;
  /** Always ACCOUNT_TYPE_OPERATOR: a key never acts as a platform administrator. */
  type: number;
  /** The key's scope intersected with the creator's current authorities there. */
  authorities: Authority[];
  allowedNetworks: string[];
  /** How long the presented secret still works, s (expiry, or the end of a rotation's grace). */
  validForS: number;
}

/** The principal of key `keyHash` under `prefix`; undefined when unknown, revoked, expired, or its creator is disabled or left the data centre. */
export async function lookupApiKey(db: Db, prefix: string, keyHash: string): Promise<KeyPrincipal | undefined> {
  const [row] = await db.select({
    id: apiKeys.id, name: apiKeys.name, tenantId: apiKeys.tenantId, scope: apiKeys.authorities, allowedNetworks: apiKeys.allowedNetworks,
    accountId: accounts.id, username: accounts.username, type: accounts.type,
    validForS: sql<number>`extract(epoch from (case when ${apiKeys.keyHash} = ${keyHash} then ${apiKeys.expiresAt}
      else least(${apiKeys.expiresAt}, ${apiKeys.previousValidUntil}) end) - now())::float8`.mapWith(Number),
    mayUseTenant: sql<boolean>`${accounts.type} = ${ACCOUNT_TYPE_ADMIN}
      or exists (select 1 from ${accountTenants} where ${accountTenants.accountId} = ${accounts.id} and ${accountTenants.tenantId} = ${apiKeys.tenantId})`,
    granted: sql<string[]>`coalesce((select array_agg(distinct granted) from ${accountRoles} join ${roles} on ${roles.id} = ${accountRoles.roleId}
      cross join unnest(${roles.authorities}) as granted
      where ${accountRoles.accountId} = ${accounts.id} and ${accountRoles.tenantId} = ${apiKeys.tenantId}), '{}'::text[])`,
  }).from(apiKeys).innerJoin(accounts, eq(accounts.id, apiKeys.createdBy)).where(and(
    eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt), gt(apiKeys.expiresAt, sql`now()`), eq(accounts.enabled, true),
    or(eq(apiKeys.keyHash, keyHash), and(eq(apiKeys.previousKeyHash, keyHash), gt(apiKeys.previousValidUntil, sql`now()`))),
  ));
  if (!row?.mayUseTenant) return undefined;
  const held = new Set(authoritiesFrom(row.type, row.granted));
  return {
    apiKeyId: row.id, name: row.name, tenantId: row.tenantId, accountId: row.accountId, username: row.username, type: ACCOUNT_TYPE_OPERATOR,
    authorities: authoritiesFrom(ACCOUNT_TYPE_OPERATOR, row.scope).filter((key) => held.has(key)), allowedNetworks: row.allowedNetworks, validForS: row.validForS,
  };
}

/** Writes last_used_at = now() for key `id`. */
export async function touchApiKey(db: Db, id: number): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, id));
}
