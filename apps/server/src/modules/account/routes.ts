/** Login-account routes (登录账号): add, list, delete, password, enable, the roles of an account; and each account's own contact details. */
import { accountContactEndpoints as contact, accountEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { newAccountFollowers } from '../../wiring.js';
import { egressPolicyOf } from '../subscription/egress.js';
import { getContact, saveContact, sendEmailCode, verifyEmail } from './contact.js';
import { listAccounts } from './repo.js';
import { accountRoles, addAccount, changePassword, deleteAccount, enableAccount } from './accounts.js';

/** Registers the account routes. */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const system = app.database.system;
  registerEndpoint(app, accountEndpoints.add, (ctx) => addAccount({ ...ctx, system }, ctx.body, newAccountFollowers));
  registerEndpoint(app, accountEndpoints.list, ({ query, inTenant }) =>
    inTenant((tx) => listAccounts(tx, query.keyword, query.current, query.size, query)));
  registerEndpoint(app, accountEndpoints.delete, (ctx) => deleteAccount({ ...ctx, system }, ctx.body.id));
  registerEndpoint(app, accountEndpoints.editPassword, (ctx) => changePassword({ ...ctx, system }, ctx.body));
  registerEndpoint(app, accountEndpoints.enable, (ctx) => enableAccount({ ...ctx, system }, ctx.body));
  registerEndpoint(app, accountEndpoints.queryRoles, (ctx) => accountRoles({ ...ctx, system }, ctx.query.accountId));
  // The caller's own contact details: every query names the signed-in account.
  const box = lazySecretBox(app.config);
  const policy = egressPolicyOf(app.config);
  registerEndpoint(app, contact.get, ({ inTenant, principal }) => inTenant((tx) => getContact(tx, principal.accountId), { read: true }));
  registerEndpoint(app, contact.save, ({ body, inTenant, principal }) => inTenant((tx) => saveContact(tx, principal.accountId, body)));
  registerEndpoint(app, contact.sendCode, ({ inTenant, principal }) => sendEmailCode(inTenant, principal.accountId, box, policy));
  registerEndpoint(app, contact.verify, ({ body, inTenant, principal }) => verifyEmail(inTenant, principal.accountId, body.code));
}
