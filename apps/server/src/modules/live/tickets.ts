/**
 * Tickets of the live stream (db/schema-live.ts, docs/events.md "The live stream"): 256 random bits,
 * base64url, valid LIVE_TICKET_TTL_S seconds and once. Only the SHA-256 is stored; redeeming deletes
 * the row, so a ticket opens one stream on whichever instance of the platform it reaches. Issuing
 * also deletes the tickets that expired unused (a row lives at most a minute past its expiry).
 *
 * What a ticket grants is checked again when it is redeemed, and while the stream stays open
 * (signInOf): the sign-in must still be valid and its account may still use the data centre.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type Authority, LIVE_TICKET_TTL_S } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { authoritiesFrom } from '../oauth/principal.js';
import { lookupTokenHash, newestTokenHash, type TokenPolicy, touchSessions } from '../oauth/tokens.js';

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** Who a ticket was issued to. */
export interface TicketGrant {
  accountId: number;
  /** The sign-in (sessions.family). */
  family: string;
  tenantId: number;
}

/** Issues a ticket for `grant`; returns the ticket (shown once, never stored). */
export async function issueTicket(db: Db, grant: TicketGrant): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await db.execute(sql`with expired as (delete from live_tickets where expires_at < now() - interval '1 minute')
    insert into live_tickets (ticket_hash, account_id, family, tenant_id, expires_at)
    values (${hashTicket(ticket)}, ${grant.accountId}, ${grant.family}, ${grant.tenantId}, now() + make_interval(secs => ${LIVE_TICKET_TTL_S}))`);
  return ticket;
}

/** Redeems `ticket` (deleting it); undefined when it is unknown, already used or expired. */
export async function redeemTicket(db: Db, ticket: string): Promise<TicketGrant | undefined> {
  const [row] = rowsOf<{ account_id: number; family: string; tenant_id: number; valid: boolean }>(await db.execute(sql`
    delete from live_tickets where ticket_hash = ${hashTicket(ticket)}
    returning account_id, family, tenant_id, expires_at > now() as valid`));
  return row?.valid ? { accountId: row.account_id, family: row.family, tenantId: row.tenant_id } : undefined;
}

/** A stream's caller as its sign-in stands now. */
export interface SignIn {
  accountId: number;
  username: string;
  /** 0 administrator. */
  type: number;
  sessionId: number;
  /** Authority keys in the stream's data centre (every key for administrators). */
  authorities: ReadonlySet<Authority>;
}

/**
 * The sign-in `family` of `accountId` as it stands now in `tenantId`, through its newest token and
 * the same check as every request (modules/oauth/tokens.ts, without rotating the token: a stream
 * cannot hand a new one to the browser, but it does count as use of the sign-in). Undefined when the
 * sign-in is revoked or expired, the account disabled or no longer allowed in the data centre.
 */
export async function signInOf(db: Db, family: string, accountId: number, tenantId: number, policy: TokenPolicy): Promise<SignIn | undefined> {
  const tokenHash = await newestTokenHash(db, family);
  const session = tokenHash ? await lookupTokenHash(db, tokenHash, policy, tenantId) : undefined;
  if (!session || session.accountId !== accountId || !session.mayUseTenant) return undefined;
  await touchSessions(db, [session.sessionId]);
  return {
    accountId, username: session.username, type: session.type, sessionId: session.sessionId,
    authorities: new Set(authoritiesFrom(session.type, session.grantedAuthorities)),
  };
}
