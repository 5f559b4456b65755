/**
 * Idempotency-Key (IETF draft-ietf-httpapi-idempotency-key-header) for the endpoints the
 * contract marks `idempotent`: a key is scoped to (data centre, account) and kept 24 h (table
 * `idempotency_keys`, written only here). The first request with a key claims it and runs; its change
 * marks the key applied in the same transaction (markApplied), its answer is stored when sent. A repeat
 * with the same fingerprint (method, path, canonical JSON body) gets that answer again; with another
 * fingerprint 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, it waits up to WAIT_MS for the
 * answer, then 409 IDEMPOTENCY_IN_PROGRESS. A holder that died before its change committed loses the key
 * after LEASE_MS to the next repeat; one that died after commit leaves 409 (the change is never made twice).
 */
import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.js';
import { idempotencyKeys } from '../db/schema.js';
import { ApiError, fieldError } from './api-error.js';

/** How long a key and its answer are kept, ms (the draft's suggestion: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** An unanswered, unapplied key older than this may be taken over (its holder crashed), ms. */
export const LEASE_MS = 60_000;
/** How long a repeat waits for the first request's answer, ms. */
export const WAIT_MS = 15_000;

/** The request header (lower case, as Node presents it). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * The key of a header value: an RFC 8941 sf-string (`"…"`, as the draft specifies) or, leniently, the
 * bare text; 1-255 visible ASCII characters. Undefined when absent; 400 on headers.Idempotency-Key when malformed.
 */
export function idempotencyKeyOf(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw fieldError('headers.Idempotency-Key', 'Idempotency-Key 只能出现一次', 'Send Idempotency-Key once');
  const quoted = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(raw.trim());
  const key = quoted ? (quoted[1] as string).replace(/\\(["\\])/g, '$1') : raw.trim();
  if (!/^[\x20-\x7e]{1,255}$/.test(key) || key.trim() === '') {
    throw fieldError('headers.Idempotency-Key', 'Idempotency-Key 须为 1-255 个可见 ASCII 字符（建议使用 UUID）', 'Idempotency-Key must be 1-255 visible ASCII characters (a UUID is a good choice)');
  }
  return key;
}

/** JSON with object keys sorted, so the same body in another key order has the same fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 of method, path and body. */
export const fingerprintOf = (method: string, path: string, body: unknown) =>
  createHash('sha256').update(`${method} ${path}\n${canonicalJson(body ?? null)}`).digest('hex');

export interface Claim { id: number; tenantId: number }
export type ClaimOutcome = { kind: 'run'; claim: Claim } | { kind: 'replay'; status: number; body: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One attempt: claim the key, or read what its row says. */
async function attempt(database: Database, scope: { tenantId: number; accountId: number }, key: string, fingerprint: string) {
  return database.withTenant(scope.tenantId, async (tx) => {
    const mine = { tenantId: scope.tenantId, accountId: scope.accountId, key };
    await tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.accountId, mine.accountId), eq(idempotencyKeys.key, key), lt(idempotencyKeys.expiresAt, sql`now()`)));
    const [inserted] = await tx.insert(idempotencyKeys).values({ ...mine, fingerprint, expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS) })
      .onConflictDoNothing().returning({ id: idempotencyKeys.id });
    if (inserted) return { state: 'claimed' as const, id: inserted.id };
    const [row] = await tx.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.accountId, mine.accountId), eq(idempotencyKeys.key, key))).for('update');
    if (!row) return { state: 'retry' as const };
    if (row.fingerprint !== fingerprint) throw new ApiError('IDEMPOTENCY_KEY_REUSED');
    if (row.responseStatus !== null && row.responseBody !== null) return { state: 'answered' as const, status: row.responseStatus, body: row.responseBody };
    const stale = Date.now() - row.lockedAt.getTime() > LEASE_MS;
    if (stale && row.appliedAt === null) {
      await tx.update(idempotencyKeys).set({ lockedAt: sql`now()` }).where(eq(idempotencyKeys.id, row.id));
      return { state: 'claimed' as const, id: row.id };
    }
    if (stale) throw new ApiError('IDEMPOTENCY_IN_PROGRESS'); // applied, answer lost in a crash: never run it twice
    return { state: 'busy' as const };
  });
}

/** Claims `key` for this request, or returns the stored answer to replay; waits while another request holds it. */
export async function claimIdempotencyKey(database: Database, scope: { tenantId: number; accountId: number }, key: string, fingerprint: string): Promise<ClaimOutcome> {
  const deadline = Date.now() + WAIT_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const seen = await attempt(database, scope, key, fingerprint);
    if (seen.state === 'claimed') return { kind: 'run', claim: { id: seen.id, tenantId: scope.tenantId } };
    if (seen.state === 'answered') return { kind: 'replay', status: seen.status, body: seen.body };
    if (Date.now() >= deadline) throw new ApiError('IDEMPOTENCY_IN_PROGRESS');
    await sleep(pause);
  }
}

/** In the transaction that commits the call's change: the key's call has been applied. */
export async function markApplied(tx: Executor, claim: Claim): Promise<void> {
  await tx.update(idempotencyKeys).set({ appliedAt: sql`now()` }).where(and(eq(idempotencyKeys.id, claim.id), sql`${idempotencyKeys.appliedAt} is null`));
}

/**
 * After the answer: stores it for repeats. A server error before any change was applied releases the
 * key instead (a retry may run the call), as the draft allows.
 */
export async function finishClaim(database: Database, claim: Claim, status: number, body: string | undefined): Promise<void> {
  await database.withTenant(claim.tenantId, async (tx) => {
    if (body === undefined || status >= 500) {
      const [row] = await tx.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, claim.id), sql`${idempotencyKeys.appliedAt} is null`)).returning({ id: idempotencyKeys.id });
      if (row || body === undefined) return;
    }
    await tx.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(eq(idempotencyKeys.id, claim.id));
  });
}

/** Deletes expired keys (owner connection, every data centre); returns how many. */
export async function deleteExpiredKeys(database: Database): Promise<number> {
  return (await database.system.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`)).returning({ id: idempotencyKeys.id })).length;
}
