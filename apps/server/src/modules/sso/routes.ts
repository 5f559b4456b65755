/**
 * Single sign-on routes (issue #28; contract api/sso.ts): status, start, callback and the provider's
 * sign-out URL (public or any signed-in person), and the data centre's rules (LOGIN_ACCOUNT, in the
 * tenant transaction with their system-log row). With OIDC_ISSUER unset the sign-in routes answer 404
 * SSO_NOT_CONFIGURED and the status says `enabled: false`; the rules can still be kept.
 */
import { ssoEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { secretBoxFor } from '../../crypto/secret-box.js';
import { ssoLinks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { oidcProvider } from './provider.js';
import { addRule, deleteRule, listRules } from './rules.js';
import { ssoSignIn } from './service.js';
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

  registerEndpoint(app, ssoEndpoints.status, async () => ({ enabled: settings !== undefined, displayName: settings?.displayName ?? null }));
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

  registerEndpoint(app, ssoEndpoints.rule.list, ({ inTenant }) => inTenant(listRules));
  registerEndpoint(app, ssoEndpoints.rule.add, ({ body, principal, tenantId, inTenant }) => inTenant((tx) => addRule(tx, principal, tenantId, body)));
  registerEndpoint(app, ssoEndpoints.rule.delete, ({ body, inTenant }) => inTenant((tx) => deleteRule(tx, body.id)));
}
