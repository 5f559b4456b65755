/**
 * Access tokens (ARCHITECTURE.md "Tenancy and authority"): 256 random bits, base64url; only their
 * SHA-256 is stored. A token expires when unused for `idleS` or when its sign-in is older than
 * `absoluteS`. A token older than `rotateS` is replaced on use: the new one goes back in the
 * zw_paas_token response header and the old one keeps working for ROTATION_GRACE_S so requests
 * already in flight do not fail. Sign-out revokes every token of the sign-in (its family). Every
 * revocation emits `session.revoked` with its transaction (docs/events.md): the principal cache of
 * every instance forgets the sign-in (principal-cache.ts).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { preparedOn } from '../../db/prepared.js';
import { emit } from '../../events/emit.js';
import { ACCOUNT_TYPE_ADMIN, SIGN_OUT_REASONS, type SignOutReason } from '@iot/contract';
import { type ClientOf, userAgentOf } from './history.js';
import type { SsoOrigin } from './sso-sessions.js';
import { accountRoles, accountTenants, accounts, roles, sessions, tenants, twoFactors } from '../../db/schema.js';

/** How long a replaced token still works, s. */
export const ROTATION_GRACE_S = 60;

export interface TokenPolicy {
  idleS: number;
  absoluteS: number;
  rotateS: number;
}

export interface ValidSession {
  sessionId: number;
  family: string;
  accountId: number;
  username: string;
  type: number;
  /** A replacement token when this one was due for rotation. */
  rotatedToken?: string;
}

/** SHA-256 (hex) of a token: what the sessions table stores. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** Issues a token for a fresh sign-in from `client` (its address and user agent, kept for the session list); `sso`: begun at a provider. */
export async function issueToken(db: Db, accountId: number, policy: TokenPolicy, client?: ClientOf, sso?: SsoOrigin): Promise<string> {
  const token = newToken();
  await db.insert(sessions).values({
    tokenHash: hashToken(token), accountId, family: randomUUID(), clientIp: client?.clientIp ?? null, userAgent: userAgentOf(client?.userAgent),
    ssoIssuer: sso?.issuer ?? null, ssoSid: sso?.sid ?? null,
    expiresAt: sql`now() + make_interval(secs => ${policy.absoluteS})`,
  });
  return token;
}

/** What a valid token says about its caller in the requested tenant. */
export interface SessionInTenant extends ValidSession {
  /** The account may use the tenant (administrators: any existing tenant). */
  mayUseTenant: boolean;
  /** Authority keys its roles grant in the tenant (unfiltered; empty for administrators, who hold all). */
  grantedAuthorities: string[];
  /** A role (of any data centre) requires two-factor and the account has not enrolled: enrolment only. */
  mustEnrol: boolean;
  /** Two-factor is on for the account (dangerous calls then need a recent step-up). */
  twoFactorOn: boolean;
  /** When the sign-in last proved its second factor again, local ms (from the database's age of it); null: never. */
  stepUpAt: number | null;
}

/**
 * The token check as a prepared statement, built once per connection handle: every request runs it,
 * so neither drizzle nor PostgreSQL should build or plan it again.
 */
function buildVerifyQuery(db: Db, name: string) {
  const tenantId = sql.placeholder('tenantId');
  return db
    .select({
      sessionId: sessions.id, family: sessions.family, accountId: sessions.accountId, expiresAt: sessions.expiresAt,
      username: accounts.username, type: accounts.type, rotatedAt: sessions.rotatedAt,
      // Ages by the database's clock, s, so the process's clock never has to agree with it.
      createdAgeS: sql<number>`extract(epoch from now() - ${sessions.createdAt})::float8`.mapWith(Number),
      lastUsedAgeS: sql<number>`extract(epoch from now() - ${sessions.lastUsedAt})::float8`.mapWith(Number),
      expiresInS: sql<number>`extract(epoch from ${sessions.expiresAt} - now())::float8`.mapWith(Number),
      rotatedAgeS: sql<number | null>`extract(epoch from now() - ${sessions.rotatedAt})::float8`.mapWith((v) => (v === null ? null : Number(v))),
      stepUpAgeS: sql<number | null>`extract(epoch from now() - ${sessions.stepUpAt})::float8`.mapWith((v) => (v === null ? null : Number(v))),
      mayUseTenant: sql<boolean>`case when ${accounts.type} = ${ACCOUNT_TYPE_ADMIN}
        then exists (select 1 from ${tenants} where ${tenants.id} = ${tenantId}::int)
        else exists (select 1 from ${accountTenants} where ${accountTenants.accountId} = ${accounts.id} and ${accountTenants.tenantId} = ${tenantId}::int) end`,
      grantedAuthorities: sql<string[]>`case when ${accounts.type} = ${ACCOUNT_TYPE_ADMIN} then '{}'::text[]
        else coalesce((select array_agg(distinct granted) from ${accountRoles} join ${roles} on ${roles.id} = ${accountRoles.roleId}
          cross join unnest(${roles.authorities}) as granted
          where ${accountRoles.accountId} = ${accounts.id} and ${accountRoles.tenantId} = ${tenantId}::int), '{}'::text[]) end`,
      mustEnrol: sql<boolean>`(exists (select 1 from ${accountRoles} join ${roles} on ${roles.id} = ${accountRoles.roleId}
          where ${accountRoles.accountId} = ${accounts.id} and ${roles.requiresTwoFactor})
        and not exists (select 1 from ${twoFactors} where ${twoFactors.accountId} = ${accounts.id} and ${twoFactors.enabledAt} is not null))`,
      twoFactorOn: sql<boolean>`exists (select 1 from ${twoFactors} where ${twoFactors.accountId} = ${accounts.id} and ${twoFactors.enabledAt} is not null)`,
    })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(
      eq(sessions.tokenHash, sql.placeholder('tokenHash')), isNull(sessions.revokedAt), eq(accounts.enabled, true),
      gt(sessions.expiresAt, sql`now()`),
      gt(sessions.lastUsedAt, sql`now() - make_interval(secs => ${sql.placeholder('idleS')}::int)`),
      or(isNull(sessions.rotatedAt), gt(sessions.rotatedAt, sql`now() - make_interval(secs => ${ROTATION_GRACE_S})`)),
    ))
    .prepare(name);
}

const verifyQuery = (db: Db) => preparedOn(db, 'verify_token', (name) => buildVerifyQuery(db, name));

/**
 * The hash of a sign-in's newest token (the one its browser holds after rotations), for checking the
 * sign-in as a whole with lookupTokenHash (the live stream); undefined when the family has no token.
 */
export async function newestTokenHash(db: Db, family: string): Promise<string | undefined> {
  const [row] = await db.select({ tokenHash: sessions.tokenHash }).from(sessions).where(eq(sessions.family, family)).orderBy(desc(sessions.id)).limit(1);
  return row?.tokenHash;
}

/** A valid token's row: the session in the tenant, with ages by the database clock (s). */
export interface TokenRow extends SessionInTenant {
  expiresAt: Date;
  createdAgeS: number;
  lastUsedAgeS: number;
  expiresInS: number;
  /** Since the token was replaced, s; null while it was not. */
  rotatedAgeS: number | null;
}

/**
 * Reads a presented token and, in the same single query, whether its account may use `tenantId` and
 * which authorities its roles grant there. Undefined when the token is missing, unknown, expired,
 * idle too long, revoked, replaced longer than ROTATION_GRACE_S ago, or of a disabled account.
 * The principal cache (principal-cache.ts) calls it on a miss; it writes nothing.
 */
export async function lookupToken(db: Db, token: string, policy: TokenPolicy, tenantId: number): Promise<TokenRow | undefined> {
  return lookupTokenHash(db, hashToken(token), policy, tenantId);
}

/** lookupToken by the token's hash (the live stream checks its sign-in through its family's newest token). */
export async function lookupTokenHash(db: Db, tokenHash: string, policy: TokenPolicy, tenantId: number): Promise<TokenRow | undefined> {
  const [row] = await verifyQuery(db).execute({ tokenHash, tenantId, idleS: policy.idleS });
  if (!row) return undefined;
  return {
    sessionId: row.sessionId, family: row.family, accountId: row.accountId, username: row.username, type: row.type,
    mayUseTenant: row.mayUseTenant, grantedAuthorities: row.grantedAuthorities, mustEnrol: row.mustEnrol, expiresAt: row.expiresAt,
    twoFactorOn: row.twoFactorOn, stepUpAt: row.stepUpAgeS === null ? null : Date.now() - row.stepUpAgeS * 1000,
    createdAgeS: row.createdAgeS, lastUsedAgeS: row.lastUsedAgeS, expiresInS: row.expiresInS, rotatedAgeS: row.rotatedAgeS,
  };
}

/** Writes last_used_at = now() for `sessionIds` (the principal cache's batched idle-expiry touches). */
export async function touchSessions(db: Db, sessionIds: readonly number[]): Promise<void> {
  if (sessionIds.length === 0) return;
  await db.execute(sql`update sessions set last_used_at = now() where id = any(${sql.param([...sessionIds])}::int[]) and revoked_at is null`);
}

/** Replaces a session's token once (concurrent requests, other instances: only the first rotates); undefined when another did. */
export async function rotate(db: Db, sessionId: number, accountId: number, family: string, expiresAt: Date): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    const claimed = await tx.update(sessions).set({ rotatedAt: sql`now()`, lastUsedAt: sql`now()` })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.rotatedAt))).returning({ stepUpAt: sessions.stepUpAt });
    const [old] = claimed;
    if (!old) return undefined;
    const token = newToken();
    // The sign-in's step-up carries over to its new token.
    await tx.insert(sessions).values({ tokenHash: hashToken(token), accountId, family, expiresAt, stepUpAt: old.stepUpAt });
    return token;
  });
}

/** Revokes every token of a sign-in (its own transaction, so this instance's cache forgets it before this returns). */
export async function revokeFamily(db: Db, family: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [revoked] = await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.family, family), isNull(sessions.revokedAt)))
      .returning({ accountId: sessions.accountId });
    if (revoked) await emit(tx, 'session.revoked', { tenantId: null, accountId: revoked.accountId, family });
  });
}

/** Revokes every live token of an account (password, role or enabled-state change), saying why; in the caller's transaction. */
export async function revokeAccount(db: Db, accountId: number, reason: SignOutReason): Promise<void> {
  await db.update(sessions).set({ revokedAt: sql`now()`, revokeReason: reason })
    .where(and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt)));
  await emit(db, 'session.revoked', { tenantId: null, accountId });
}

/**
 * Why a refused token no longer works, when an administrator's change is the cause: its revocation
 * reason, or `disabled` for a token of a disabled account. Undefined otherwise (expired, signed out, unknown).
 * Read only after verifyToken refused the token.
 */
export async function signOutReason(db: Db, token: string): Promise<SignOutReason | undefined> {
  const [row] = await db.select({ reason: sessions.revokeReason, enabled: accounts.enabled }).from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId)).where(eq(sessions.tokenHash, hashToken(token)));
  if (!row) return undefined;
  if (row.reason && row.reason in SIGN_OUT_REASONS) return row.reason as SignOutReason;
  return row.enabled ? undefined : 'disabled';
}
