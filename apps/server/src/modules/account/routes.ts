/** Login-account routes (登录账号): add, list, delete, password, enable, and the roles of an account. */
import { accountEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { listAccounts } from './repo.js';
import { accountRoles, addAccount, changePassword, deleteAccount, enableAccount } from './service.js';

/** Registers the account routes. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const system = app.database.system;
  registerEndpoint(app, accountEndpoints.add, (ctx) => addAccount({ ...ctx, system }, ctx.body));
  registerEndpoint(app, accountEndpoints.list, ({ query, inTenant }) =>
    inTenant((tx) => listAccounts(tx, query.keyword, query.current, query.size, query)));
  registerEndpoint(app, accountEndpoints.delete, (ctx) => deleteAccount({ ...ctx, system }, ctx.body.id));
  registerEndpoint(app, accountEndpoints.editPassword, (ctx) => changePassword({ ...ctx, system }, ctx.body));
  registerEndpoint(app, accountEndpoints.enable, (ctx) => enableAccount({ ...ctx, system }, ctx.body));
  registerEndpoint(app, accountEndpoints.queryRoles, (ctx) => accountRoles({ ...ctx, system }, ctx.query.accountId));
}
