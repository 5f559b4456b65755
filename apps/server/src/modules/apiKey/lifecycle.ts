/**
 * API keys of a data centre (docs/identity.md "API keys"): create (the key is returned
 * once), list, revoke and rotate. Every change runs in the caller's tenant transaction (row-level
 * security) with its system-log row, and emits `apiKey.changed` so every instance's key cache
 * (key-cache.ts) forgets the key at commit. Errors: 400 (past expiry, bad CIDR), 403 ESCALATION (a
 * scope beyond the creator's authorities), 404 (no live key of that id in this data centre).
 */
import { ACCOUNT_TYPE_ADMIN, API_KEY_DEFAULT_GRACE_S, type ApiKeyRecord, type Authority } from '@iot/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.js';
import { apiKeys } from '../../db/schema-api-key.js';
import { accounts } from '../../db/schema-identity.js';
import { iso } from '../../db/sql.js';
import { emit } from '../../events/emit.js';
import { ApiError, fieldError } from '../../http/api-error.js';
import type { Principal } from '../../http/context.js';
import { hashApiKey, newKey, newPrefix, parseNetworks } from './keys.js';

export interface NewApiKey {
  name: string;
  authorities: Authority[];
  expiresAt: string;
  allowedNetworks?: string[];
}

/** A key's secret as answered once. */
export interface ApiKeySecret {
  id: number;
  key: string;
  prefix: string;
  expiresAt: string;
}

/** Creates a key in the transaction's tenant for `creator`; its scope must be held by the creator. */
export async function createApiKey(tx: Tx, tenantId: number, creator: Principal, input: NewApiKey): Promise<ApiKeySecret> {
  if (creator.type !== ACCOUNT_TYPE_ADMIN && input.authorities.some((key) => !creator.authorities.has(key))) throw new ApiError('ESCALATION');
  const expiresAt = new Date(input.expiresAt);
  if (expiresAt.getTime() <= Date.now()) throw fieldError('body.expiresAt', '过期时间必须晚于现在', 'the expiry must lie in the future');
  const allowedNetworks = parseNetworks(input.allowedNetworks ?? []);
  const prefix = newPrefix();
  const key = newKey(prefix);
  const [row] = await tx.insert(apiKeys).values({
    tenantId, name: input.name, prefix, keyHash: hashApiKey(key), authorities: [...new Set(input.authorities)], allowedNetworks,
    createdBy: creator.accountId, expiresAt,
  }).returning({ id: apiKeys.id });
  if (!row) throw new Error('api key not inserted');
  return { id: row.id, key, prefix, expiresAt: expiresAt.toISOString() };
}

/** Every key of the data centre (newest first), without secrets. */
export async function listApiKeys(db: Executor): Promise<ApiKeyRecord[]> {
  const rows = await db.select({
    id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, authorities: apiKeys.authorities, allowedNetworks: apiKeys.allowedNetworks,
    createdBy: accounts.username, createdAt: apiKeys.createdAt, expiresAt: apiKeys.expiresAt, lastUsedAt: apiKeys.lastUsedAt,
    revokedAt: apiKeys.revokedAt, previousValidUntil: apiKeys.previousValidUntil,
  }).from(apiKeys).innerJoin(accounts, eq(accounts.id, apiKeys.createdBy)).orderBy(asc(apiKeys.id));
  const now = Date.now();
  return rows.reverse().map(({ revokedAt, ...row }) => ({
    ...row,
    state: revokedAt ? 'revoked' : new Date(row.expiresAt).getTime() <= now ? 'expired' : 'active',
    createdAt: iso(row.createdAt), expiresAt: iso(row.expiresAt), lastUsedAt: iso(row.lastUsedAt),
    previousValidUntil: row.previousValidUntil && new Date(row.previousValidUntil).getTime() > now && !revokedAt ? iso(row.previousValidUntil) : null,
  }));
}

const live = (id: number) => and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt), sql`${apiKeys.expiresAt} > now()`);

/** Revokes key `id` of the transaction's tenant at once (its replaced key too); 404 when there is no live key. */
export async function revokeApiKey(tx: Tx, tenantId: number, id: number): Promise<void> {
  const [row] = await tx.update(apiKeys).set({ revokedAt: sql`now()` }).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).returning({ id: apiKeys.id });
  if (!row) throw new ApiError('NOT_FOUND');
  await emit(tx, 'apiKey.changed', { tenantId, apiKeyId: id });
}

/**
 * Gives key `id` a new secret; the replaced one keeps working for `graceS` seconds (default 24 h; 0:
 * stops at once). A second rotation ends the first one's grace. 404 when there is no live key.
 */
export async function rotateApiKey(tx: Tx, tenantId: number, id: number, graceS = API_KEY_DEFAULT_GRACE_S): Promise<ApiKeySecret & { previousValidUntil: string }> {
  const [current] = await tx.select({ prefix: apiKeys.prefix }).from(apiKeys).where(live(id));
  if (!current) throw new ApiError('NOT_FOUND');
  const key = newKey(current.prefix);
  const [row] = await tx.update(apiKeys).set({
    previousKeyHash: sql`${apiKeys.keyHash}`, previousValidUntil: sql`now() + make_interval(secs => ${graceS})`, keyHash: hashApiKey(key),
  }).where(live(id)).returning({ expiresAt: apiKeys.expiresAt, previousValidUntil: apiKeys.previousValidUntil });
  if (!row?.previousValidUntil) throw new ApiError('NOT_FOUND');
  await emit(tx, 'apiKey.changed', { tenantId, apiKeyId: id });
  return { id, key, prefix: current.prefix, expiresAt: iso(row.expiresAt), previousValidUntil: iso(row.previousValidUntil) };
}
