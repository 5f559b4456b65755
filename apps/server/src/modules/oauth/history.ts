/**
 * Sign-in history (docs/identity.md "Sessions"): the only writer of
 * sign_in_attempts. A row per attempt on an existing account (the sign-in service: password step,
 * two-factor step) and per API key's first use in a day of its data centre's time zone. Attempts on
 * unknown usernames and malformed requests (expired form key, unencrypted password) are not recorded
 * here: the system log keeps every attempt with its username, and throttling counts there. No password,
 * code or token is ever stored. Bounded: SIGN_IN_HISTORY_MAX_PER_ACCOUNT rows per account (pruned as
 * rows are added), and rows older than SIGN_IN_HISTORY_DAYS go with the retention job (pruneSignInHistory).
 */
import { type Page, SIGN_IN_HISTORY_MAX_PER_ACCOUNT, type SignInMethod, type SignInRecord, type SignInResult } from '@iot/contract';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowCount } from '../../db/rows.js';
import { signInAttempts, tenants } from '../../db/schema.js';
import { iso } from '../../db/sql.js';

/** Longest user agent kept, characters. */
const USER_AGENT_MAX = 512;

/** Where an attempt came from. */
export interface ClientOf {
  clientIp: string;
  /** The User-Agent header as sent (cut to USER_AGENT_MAX); undefined when absent. */
  userAgent: string | undefined;
}

/** The User-Agent to store: trimmed, cut, null when empty. */
export const userAgentOf = (value: string | undefined): string | null => value?.trim().slice(0, USER_AGENT_MAX) || null;

/** Drops the account's rows beyond the newest SIGN_IN_HISTORY_MAX_PER_ACCOUNT. */
async function keepNewest(db: Executor, accountId: number): Promise<void> {
  await db.execute(sql`delete from sign_in_attempts where account_id = ${accountId} and id <= (
    select id from sign_in_attempts where account_id = ${accountId} order by id desc offset ${SIGN_IN_HISTORY_MAX_PER_ACCOUNT} limit 1)`);
}

/** Records one attempt on account `accountId`. */
export async function recordSignIn(db: Executor, accountId: number, client: ClientOf, method: SignInMethod, result: SignInResult): Promise<void> {
  await db.insert(signInAttempts).values({ accountId, clientIp: client.clientIp, userAgent: userAgentOf(client.userAgent), method, result });
  await keepNewest(db, accountId);
}

/** An API key's use, recorded when it is the key's first in the current day of its data centre's time zone. */
export interface ApiKeyUse extends ClientOf {
  apiKeyId: number;
  apiKeyName: string;
  accountId: number;
  tenantId: number;
}

/** Records `use` unless the key already has a row today (the key cache calls it at most once a minute per key). */
export async function recordApiKeyUse(db: Executor, use: ApiKeyUse): Promise<void> {
  const added = await db.execute(sql`
    insert into sign_in_attempts (account_id, client_ip, user_agent, method, result, api_key_id, api_key_name)
    select ${use.accountId}, ${use.clientIp}, ${userAgentOf(use.userAgent)}, 'apiKey', 'success', ${use.apiKeyId}, ${use.apiKeyName}
    where not exists (
      select 1 from sign_in_attempts a, ${tenants} t
      where t.id = ${use.tenantId} and a.account_id = ${use.accountId} and a.api_key_id = ${use.apiKeyId}
        and a.created_at >= date_trunc('day', now() at time zone t.time_zone) at time zone t.time_zone)`);
  if (rowCount(added) > 0) await keepNewest(db, use.accountId);
}

/** A page of account `accountId`'s sign-in history, newest first. */
export async function signInHistory(db: Executor, accountId: number, current: number, size: number): Promise<Page<SignInRecord>> {
  const where = eq(signInAttempts.accountId, accountId);
  const [total] = await db.select({ n: count() }).from(signInAttempts).where(where);
  const rows = await db.select().from(signInAttempts).where(where).orderBy(desc(signInAttempts.id)).limit(size).offset((current - 1) * size);
  return {
    records: rows.map((row) => ({
      id: row.id, createdAt: iso(row.createdAt), clientIp: row.clientIp, userAgent: row.userAgent,
      method: row.method as SignInMethod, result: row.result as SignInResult, apiKeyName: row.apiKeyName,
    })),
    total: total?.n ?? 0, current, size,
  };
}

/** Deletes history rows older than `days` days (the retention job; owner connection); returns how many went. */
export async function pruneSignInHistory(db: Executor, days: number): Promise<number> {
  return rowCount(await db.execute(sql`delete from sign_in_attempts where created_at < now() - make_interval(days => ${days}) returning 1`));
}
