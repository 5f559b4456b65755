/**
 * Sessions and single sign-on (docs/identity.md "Single sign-on"), the oauth module being
 * the only writer of `sessions`:
 * - Back-channel logout ends the sign-ins a provider's logout token names (endSsoSessions). Accounts
 *   linked to a provider have no password, so every session of theirs began at the provider; the
 *   ID token's `sid`, kept on a family's first token (`sessions.sso_sid`), narrows a logout to the
 *   sign-ins of that provider session. A sign-in finished with the platform's second factor does not
 *   carry it (the challenge holds the account only): it ends with any logout of its account.
 * - Password sign-in off for a data centre (tenants.password_sign_in, owned by the tenant module):
 *   a non-administrator's password sign-in is refused when the chosen data centre, or any data centre
 *   the account works in, has it off (passwordSignInRefused); turning it off ends the password
 *   sessions of the data centre's operators at once (endPasswordSessions).
 */
import { ACCOUNT_TYPE_ADMIN } from '@iot/contract';
import { and, eq, ne, notExists, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { accountTenants, accounts, ssoLinks } from '../../db/schema.js';
import { emitAll } from '../../events/emit.js';
import { anyPasswordSignInOff } from '../tenant/settings.js';
import { revokeSessions } from './sessions.js';

/** The provider session a single sign-on began at: its issuer and the ID token's `sid` (null when it sent none). */
export interface SsoOrigin {
  issuer: string;
  sid: string | null;
}

/** Whether a password sign-in of (non-administrator) `accountId` into `tenantId` is refused because password sign-in is off there or in one of its data centres. */
export async function passwordSignInRefused(db: Executor, accountId: number, tenantId: number): Promise<boolean> {
  const mine = await db.select({ tenantId: accountTenants.tenantId }).from(accountTenants).where(eq(accountTenants.accountId, accountId));
  return anyPasswordSignInOff(db, [...new Set([tenantId, ...mine.map((row) => row.tenantId)])]);
}

/**
 * Ends the live sign-ins a logout token of `issuer` names: with `sid`, those begun at that provider
 * session (and, given the linked `accountId`, the account's sign-ins whose provider session is not
 * known); without, every sign-in of `accountId`. Emits `session.revoked` per sign-in in the same
 * transaction, and `log` (the system-log rows) for each account whose sessions ended, in it too.
 */
export async function endSsoSessions(db: Db, issuer: string, accountId: number | undefined, sid: string | undefined,
  log: (tx: Executor, ended: { accountId: number; username: string }) => Promise<void>): Promise<void> {
  if (accountId === undefined && sid === undefined) return;
  const scope = accountId === undefined ? sql`sso_issuer = ${issuer} and sso_sid = ${sid}` : sql`account_id = ${accountId}`;
  const chosen = sid === undefined ? sql`true` : sql`(f.sso_sid = ${sid} and f.sso_issuer = ${issuer}) or f.sso_sid is null`;
  return db.transaction(async (tx) => {
    const ended = rowsOf<{ family: string; account_id: number; username: string }>(await tx.execute(sql`
      with firsts as (select distinct on (family) family, sso_issuer, sso_sid from sessions where ${scope} order by family, id)
      update sessions s set revoked_at = now(), revoke_reason = 'ssoLoggedOut'
      from firsts f, accounts a
      where s.family = f.family and (${chosen}) and s.revoked_at is null and a.id = s.account_id
      returning s.family, s.account_id, a.username`));
    const families = [...new Map(ended.map((row) => [row.family, row])).values()];
    await emitAll(tx, families.map((row) => ({ name: 'session.revoked' as const, payload: { tenantId: null, accountId: row.account_id, family: row.family } })));
    for (const row of new Map(ended.map((row) => [row.account_id, row])).values()) await log(tx, { accountId: row.account_id, username: row.username });
  });
}

/** Ends every session of the password accounts (not administrators, not linked to a provider) working in `tenantId`, in the caller's transaction; how many accounts. */
export async function endPasswordSessions(tx: Executor, tenantId: number): Promise<number> {
  const members = await tx.select({ id: accounts.id }).from(accounts)
    .innerJoin(accountTenants, and(eq(accountTenants.accountId, accounts.id), eq(accountTenants.tenantId, tenantId)))
    .where(and(ne(accounts.type, ACCOUNT_TYPE_ADMIN), notExists(tx.select({ one: sql`1` }).from(ssoLinks).where(eq(ssoLinks.accountId, accounts.id)))));
  for (const member of members) await revokeSessions(tx, member.id, 'passwordSignInOff');
  return members.length;
}
