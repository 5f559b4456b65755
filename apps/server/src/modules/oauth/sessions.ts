/**
 * Live sessions of an account (docs/identity.md "Sessions"). A session is one
 * sign-in (a token family: rotated tokens share it) with a token that still works: not revoked, before
 * its absolute expiry, used within the idle limit and not replaced longer than ROTATION_GRACE_S ago
 * (the rules of tokens.ts lookupToken). Its public `id` is the id of its first token's row. Revoking
 * marks every token of the family with a reason (contract SIGN_OUT_REASONS: the next call of that
 * session answers 403 TOKEN_EXPIRED saying why) and emits `session.revoked` per family in the caller's
 * transaction: at commit the principal caches forget it and its live streams close, as at sign-out.
 */
import type { SessionRecord, SignOutReason } from '@iot/contract';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { sessions } from '../../db/schema.js';
import { iso } from '../../db/sql.js';
import { emitAll } from '../../events/emit.js';
import { ApiError } from '../../http/api-error.js';
import { ROTATION_GRACE_S } from './tokens.js';

interface SessionRow {
  id: number;
  family: string;
  started_at: Date | string;
  last_used_at: Date | string;
  expires_at: Date | string;
  client_ip: string | null;
  user_agent: string | null;
}

/** Account `accountId`'s live sessions, last used first; `currentFamily` marks the caller's own. `idleS`: the idle limit, s. */
export async function listSessions(db: Executor, accountId: number, idleS: number, currentFamily?: string): Promise<SessionRecord[]> {
  const rows = rowsOf<SessionRow>(await db.execute(sql`
    with live as (
      select distinct family from sessions
      where account_id = ${accountId} and revoked_at is null and expires_at > now()
        and last_used_at > now() - make_interval(secs => ${idleS})
        and (rotated_at is null or rotated_at > now() - make_interval(secs => ${ROTATION_GRACE_S})))
    select min(s.id) as id, s.family, min(s.created_at) as started_at, max(s.last_used_at) as last_used_at, max(s.expires_at) as expires_at,
      (array_agg(s.client_ip order by s.id))[1] as client_ip, (array_agg(s.user_agent order by s.id))[1] as user_agent
    from sessions s join live on live.family = s.family
    where s.account_id = ${accountId}
    group by s.family order by max(s.last_used_at) desc, min(s.id) desc`));
  return rows.map((row) => ({
    id: Number(row.id), startedAt: iso(row.started_at), lastUsedAt: iso(row.last_used_at), expiresAt: iso(row.expires_at),
    clientIp: row.client_ip, userAgent: row.user_agent, current: row.family === currentFamily,
  }));
}

/** Revokes the unrevoked, unexpired tokens matching `where`; emits session.revoked per family; returns the families. */
async function revokeWhere(db: Executor, accountId: number, where: ReturnType<typeof and>, reason: SignOutReason): Promise<string[]> {
  const revoked = await db.update(sessions).set({ revokedAt: sql`now()`, revokeReason: reason })
    .where(and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`), where))
    .returning({ family: sessions.family });
  const families = [...new Set(revoked.map((row) => row.family))];
  await emitAll(db, families.map((family) => ({ name: 'session.revoked' as const, payload: { tenantId: null, accountId, family } })));
  return families;
}

/** Signs out session `id` of account `accountId`. Throws ApiError NOT_FOUND when it is not one of its live sessions. */
export async function revokeSession(db: Executor, accountId: number, id: number, reason: SignOutReason): Promise<void> {
  const [row] = await db.select({ family: sessions.family }).from(sessions).where(and(eq(sessions.id, id), eq(sessions.accountId, accountId)));
  if (!row || (await revokeWhere(db, accountId, eq(sessions.family, row.family), reason)).length === 0) throw new ApiError('NOT_FOUND');
}

/** Signs out every session of account `accountId` but `keepFamily` (none: all); returns how many sessions ended. */
export async function revokeSessions(db: Executor, accountId: number, reason: SignOutReason, keepFamily?: string): Promise<number> {
  return (await revokeWhere(db, accountId, keepFamily === undefined ? undefined : ne(sessions.family, keepFamily), reason)).length;
}

/**
 * Records a step-up (twoFactor/step-up.ts) on every live token of sign-in `family`: the time carries
 * over rotation; the caller emits `account.changed` so no principal cache keeps the old time.
 */
export async function recordStepUp(db: Executor, family: string): Promise<void> {
  await db.update(sessions).set({ stepUpAt: sql`now()` }).where(and(eq(sessions.family, family), isNull(sessions.revokedAt)));
}
