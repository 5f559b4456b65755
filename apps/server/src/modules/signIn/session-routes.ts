/**
 * Sessions and sign-in history routes: the caller's own (any signed-in person;
 * API keys cannot call `authenticated` routes) and, for account managers (LOGIN_ACCOUNT), another
 * account's, which must be visible in the data centre and manageable under the no-escalation rules
 * (modules/account/guard.ts: NOT_FOUND, ESCALATION). Revocations run in the request's transaction with
 * their system-log row.
 */
import { type Endpoint, sessionEndpoints, signInHistoryEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { type HandlerContext, registerEndpoint } from '../../http/endpoint.js';
import type { Principal } from '../../http/context.js';
import { authoritiesEverywhere, loadManagedAccount } from '../account/guard.js';
import { signInHistory } from '../oauth/history.js';
import { listSessions, revokeSession, revokeSessions } from '../oauth/sessions.js';

/** Registers the routes (called by signInRoutes). */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const system = app.database.system;
  const idleS = app.config.TOKEN_IDLE_S;
  /**
   * Runs `fn(tx)` on account `accountId` in the request's tenant transaction once the caller may manage
   * it. The account's authorities in every data centre are read first, on the owner connection (PGlite
   * has one connection: not from inside the transaction).
   */
  const managed = async <T>(context: { principal: Principal; inTenant: HandlerContext<Endpoint>['inTenant'] }, accountId: number, fn: (tx: Tx) => Promise<T>): Promise<T> => {
    const authorities = await authoritiesEverywhere(system, accountId);
    return context.inTenant(async (tx) => {
      await loadManagedAccount(tx, context.principal, accountId, authorities);
      return fn(tx);
    });
  };

  registerEndpoint(app, sessionEndpoints.list, ({ principal }) => listSessions(system, principal.accountId, idleS, principal.family));
  registerEndpoint(app, sessionEndpoints.revoke, ({ body, principal, inTenant }) =>
    inTenant(async (tx) => { await revokeSession(tx, principal.accountId, body.id, 'signedOutElsewhere'); return null; }));
  registerEndpoint(app, sessionEndpoints.revokeOthers, async ({ principal, inTenant }) =>
    ({ revoked: await inTenant((tx) => revokeSessions(tx, principal.accountId, 'signedOutElsewhere', principal.family)) }));
  registerEndpoint(app, signInHistoryEndpoints.list, ({ query, principal }) => signInHistory(system, principal.accountId, query.current, query.size));

  registerEndpoint(app, sessionEndpoints.account.list, (ctx) =>
    managed(ctx, ctx.query.accountId, (tx) => listSessions(tx, ctx.query.accountId, idleS, ctx.principal.family)));
  registerEndpoint(app, sessionEndpoints.account.revoke, (ctx) =>
    managed(ctx, ctx.body.accountId, async (tx) => { await revokeSession(tx, ctx.body.accountId, ctx.body.id, 'signedOutByManager'); return null; }));
  registerEndpoint(app, sessionEndpoints.account.revokeAll, async (ctx) =>
    ({ revoked: await managed(ctx, ctx.body.accountId, (tx) => revokeSessions(tx, ctx.body.accountId, 'signedOutByManager')) }));
  registerEndpoint(app, signInHistoryEndpoints.account, (ctx) =>
    managed(ctx, ctx.query.accountId, (tx) => signInHistory(tx, ctx.query.accountId, ctx.query.current, ctx.query.size)));
}
