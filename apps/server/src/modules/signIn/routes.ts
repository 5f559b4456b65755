/**
 * Sign-in routes: /oauth/key, /oauth/checkCode(/match), /oauth/token(/twoFactor), /oauth/userInfo, /oauth/logout; sessions and
 * sign-in history (session-routes.ts). This module composes the sign-in pieces of oauth (keys, captcha, tokens, sessions), the
 * second factor (twoFactor) and the accounts' no-escalation guard; none of them imports it.
 */
import { authEndpoints, twoFactorEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { insertAudit } from '../auditLog/repo.js';
import { createCaptcha, matchCaptcha } from '../oauth/captcha.js';
import { currentKeyPair } from '../oauth/keys.js';
import { timeZoneOf } from '../tenant/settings.js';
import { signIn, signInSecondFactor } from './password.js';
import { sessionRoutes } from './session-routes.js';
import { revokeFamily } from '../oauth/tokens.js';

/** Registers the sign-in, session and sign-in history routes. */
export async function signInRoutes(app: FastifyInstance): Promise<void> {
  const db = app.database.system;
  registerEndpoint(app, authEndpoints.publicKey, async () => {
    const pair = await currentKeyPair(db);
    return { publicKey: pair.publicPem, keyId: pair.id };
  });
  registerEndpoint(app, authEndpoints.captcha, async () => ({ ...(await createCaptcha(db)), required: app.config.AUTH_CAPTCHA }),
    { rateLimitPerMinute: 120 });
  registerEndpoint(app, authEndpoints.captchaMatch, async ({ body }) => ({ match: await matchCaptcha(db, body.checkCodeId, body.checkCode) }),
    { rateLimitPerMinute: 60 });
  registerEndpoint(app, authEndpoints.signIn, ({ body, request, tenantId }) =>
    signIn({ db, config: app.config, tenantId, clientIp: request.ip, userAgent: request.headers['user-agent'] }, body), { rateLimitPerMinute: 60 });
  registerEndpoint(app, twoFactorEndpoints.signIn, ({ body, request, tenantId }) =>
    signInSecondFactor({ db, config: app.config, tenantId, clientIp: request.ip, userAgent: request.headers['user-agent'] }, body), { rateLimitPerMinute: 60 });
  // The principal already holds the tenant's authorities, in menu order (auth-plugin.ts); the tenant
  // list comes from the same cache (principal-cache.ts): one query left, the data centre's time zone.
  registerEndpoint(app, authEndpoints.userInfo, async ({ principal, tenantId }) => ({
    username: principal.username,
    type: principal.type,
    authorities: [...principal.authorities],
    tenants: await app.principals.tenants(principal.accountId, principal.type),
    timeZone: await timeZoneOf(db, tenantId),
  }));
  registerEndpoint(app, authEndpoints.signOut, async ({ principal, tenantId, request }) => {
    await revokeFamily(db, principal.family);
    await insertAudit(db, { tenantId, accountId: principal.accountId, username: principal.username, action: 'sign-out', result: 'success', clientIp: request.ip });
    return null;
  }, { audit: false });
  await sessionRoutes(app);
}
