/**
 * Single sign-on routes (contract api/sso.ts): status, start, callback and the provider's
 * sign-out URL (public or any signed-in person), and the data centre's rules (LOGIN_ACCOUNT, in the
 * tenant transaction with their system-log row). With OIDC_ISSUER unset the sign-in routes answer 404
 * SSO_NOT_CONFIGURED and the status says `enabled: false`; the rules can still be kept. Password
 * sign-in per data centre (password-sign-in.ts) and the provider's back-channel logout (backchannel.ts,
 * a form post: this scope parses application/x-www-form-urlencoded).
 */
import { ssoEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { secretBoxFor } from '../../crypto/secret-box.js';
import { ssoLinks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { insertAudit } from '../auditLog/repo.js';
import { endSsoSessions } from '../oauth/sso-sessions.js';
import { passwordSignInOf } from '../tenant/settings.js';
import { logoutTokenChecker } from './backchannel.js';
import { assertRulesSuffice, changePasswordSignIn } from './password-sign-in.js';
import { oidcProvider } from './provider.js';
import { addRule, deleteRule, listRules } from './rules.js';
import { ssoSignIn } from './signIn.js';
import { oidcSettingsOf } from './settings.js';

export async function ssoRoutes(app: FastifyInstance): Promise<void> {
  const settings = oidcSettingsOf(app.config);
  let client: ReturnType<typeof oidcProvider> | undefined;
  /** The provider's client, made at first use (the platform key is read then). */
  const provider = () => {
    if (!settings) throw new ApiError('SSO_NOT_CONFIGURED');
    client ??= oidcProvider(settings, secretBoxFor(app.config), app.log);
    return client;
  };
  if (settings) provider(); // a bad OIDC_ISSUER fails at boot, not at the first sign-in
  const db = app.database.system;
  let checkLogoutToken: ReturnType<typeof logoutTokenChecker> | undefined;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 32 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));

  registerEndpoint(app, ssoEndpoints.status, async ({ tenantId }) =>
    ({ enabled: settings !== undefined, displayName: settings?.displayName ?? null, passwordSignIn: await passwordSignInOf(db, tenantId) }));
  registerEndpoint(app, ssoEndpoints.start, ({ tenantId }) => provider().start(tenantId), { rateLimitPerMinute: 60 });
  registerEndpoint(app, ssoEndpoints.callback, async ({ body, request }) => {
    const { claims, tenantId } = await provider().finish(body.transaction, body.callback);
    return ssoSignIn({ db, config: app.config, tenantId, clientIp: request.ip, userAgent: request.headers['user-agent'] }, claims, settings?.usernameClaim ?? '');
  }, { rateLimitPerMinute: 60 });
  registerEndpoint(app, ssoEndpoints.logoutUrl, async ({ principal }) => {
    if (!settings) return { url: null };
    const [link] = await db.select({ accountId: ssoLinks.accountId }).from(ssoLinks).where(eq(ssoLinks.accountId, principal.accountId));
    return { url: link ? ((await provider().endSessionUrl()) ?? null) : null };
  });

  registerEndpoint(app, ssoEndpoints.backchannelLogout, async ({ body, reply, request, tenantId }) => {
    reply.header('cache-control', 'no-store');
    checkLogoutToken ??= logoutTokenChecker(provider(), settings?.clientId ?? '', app.log);
    const { issuer, sub, sid } = await checkLogoutToken(body.logout_token);
    const [link] = sub ? await db.select({ accountId: ssoLinks.accountId }).from(ssoLinks).where(and(eq(ssoLinks.issuer, issuer), eq(ssoLinks.subject, sub))) : [];
    if (sub && !link && !sid) return null; // nobody of ours: nothing to end
    await endSsoSessions(db, issuer, link?.accountId, sid, (tx, ended) =>
      insertAudit(tx, { tenantId, accountId: ended.accountId, username: ended.username, action: 'sign-out', result: 'ssoLoggedOut', clientIp: request.ip }));
    return null;
  }, { rateLimitPerMinute: 120 });
  registerEndpoint(app, ssoEndpoints.passwordSignIn, ({ body, tenantId, inTenant }) =>
    inTenant((tx) => changePasswordSignIn(tx, tenantId, body.enabled, settings !== undefined)));
  registerEndpoint(app, ssoEndpoints.rule.list, ({ inTenant }) => inTenant(listRules));
  registerEndpoint(app, ssoEndpoints.rule.add, ({ body, principal, tenantId, inTenant }) => inTenant((tx) => addRule(tx, principal, tenantId, body)));
  registerEndpoint(app, ssoEndpoints.rule.delete, ({ body, tenantId, inTenant }) => inTenant(async (tx) => {
    await deleteRule(tx, body.id);
    await assertRulesSuffice(tx, tenantId);
    return null;
  }));
}
