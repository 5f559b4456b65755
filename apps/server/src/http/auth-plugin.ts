/**
 * Authentication and authorization of every route (deny by default):
 * - a route without a declared `access` fails at registration;
 * - `public` routes pass; others need a valid zw_paas_token (else 403 TOKEN_EXPIRED);
 * - the tenantId header must name a tenant the account may use (else 403 FORBIDDEN);
 * - one of the route's authority keys must be held in that tenant (type 0 passes; else 403 FORBIDDEN);
 * - a route of scope `platform` (an object every data centre shares) needs a platform administrator,
 *   type 0, whatever the authorities (else 403 FORBIDDEN saying so).
 * - a route with `redeemTicket` (the live stream) also takes `?ticket=` instead of the token and
 *   tenantId headers: the ticket's sign-in and data centre stand in for them (else 403 TOKEN_EXPIRED).
 * A rotated token is returned in the zw_paas_token response header. Every route is recorded in
 * `app.routeTable` (the live route table the authorization matrix test walks). The verified principal
 * comes from the process's cache (`app.principals`, modules/oauth/principal-cache.ts): a request
 * whose token was seen in the last seconds needs no database round trip to be authenticated.
 * A request with `Authorization: Bearer iotk_…` and no token is an API key's (api-key-auth.ts).
 * A session whose account must enrol in two-factor (a role requires it, or it is a platform
 * administrator and DEMO is off) reaches only the endpoints marked `duringEnrolment` (else 403
 * TWO_FACTOR_ENROLMENT_REQUIRED). An endpoint marked `stepUp` (a dangerous action) needs,
 * from a session whose account has two-factor on, a step-up within STEP_UP_WINDOW_MS (else 403
 * STEP_UP_REQUIRED; modules/twoFactor/step-up.ts). API keys are not asked: they hold no second factor
 * (docs/identity.md "Step-up").
 */
import { ACCOUNT_TYPE_ADMIN, accessKeys, DEFAULT_TENANT_ID, SIGN_OUT_REASONS, TOKEN_HEADER, WEB_BASE_PATH } from '@iot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authoritiesFrom } from '../modules/oauth/principal.js';
import { createPrincipalCache, type PrincipalCache } from '../modules/oauth/principal-cache.js';
import { signOutReason } from '../modules/oauth/tokens.js';
import { requiredByPlatform } from '../modules/twoFactor/enrolment.js';
import { steppedUp } from '../modules/twoFactor/step-up.js';
import { apiKeyAuthentication, bearerKeyOf } from './api-key-auth.js';
import { ApiError, fieldError } from './api-error.js';
import { DOCS_PATH } from './docs-plugin.js';

/** Reads the tenantId header (default 100); 400 when it is not a positive integer. */
export function tenantFromHeader(request: FastifyRequest): number {
  const raw = request.headers.tenantid;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return DEFAULT_TENANT_ID;
  if (!/^\d{1,9}$/.test(value)) throw fieldError('headers.tenantId', 'tenantId 必须是正整数', 'tenantId must be a positive integer');
  return Number(value);
}

/** Why a data-centre account may not change a platform-wide object (docs/authorities.md "Platform-wide objects"). */
const PLATFORM_ONLY = {
  'zh-CN': '该对象由所有数据中心共享，只有平台管理员可以修改', 'en-US': 'This object is shared by every data centre; only platform administrators may change it',
};

/** Why a ticket (a route with `redeemTicket`) was refused. */
const TICKET_REFUSED = { 'zh-CN': '实时连接凭据无效、已使用或已过期', 'en-US': 'The live stream ticket is unknown, used or expired' };

/** Routes registered by third-party plugins (static files, the API reference) that are public. */
const PUBLIC_PREFIXES = [`${WEB_BASE_PATH}/`, DOCS_PATH];

declare module 'fastify' {
  interface FastifyInstance {
    /** The verified principals of this process (modules/oauth/principal-cache.ts). */
    principals: PrincipalCache;
  }
}

export const authPlugin = fp(async (app: FastifyInstance) => {
  // Created at first use (a bare app that only registers routes needs no database).
  let cache: PrincipalCache | undefined;
  const principals = () => {
    const { config, database } = app;
    cache ??= createPrincipalCache(database, { idleS: config.TOKEN_IDLE_S, absoluteS: config.TOKEN_ABSOLUTE_S, rotateS: config.TOKEN_ROTATE_S },
      { lifetimeMs: config.PRINCIPAL_CACHE_MS, log: app.log });
    return cache;
  };
  app.decorate('principals', { getter: principals });
  const checkApiKey = apiKeyAuthentication(app);
  app.addHook('onClose', async () => { await cache?.close(); }); // after the jobs (registered before them): the last touches written
  app.decorateRequest('principal', undefined);
  app.decorateRequest('tenantId', DEFAULT_TENANT_ID);
  app.decorateRequest('errorCode', undefined);
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    // The web app's own files under /api/ and the API reference's page and script under /docs are
    // public by nature; every other route must say what it needs.
    if (PUBLIC_PREFIXES.some((prefix) => route.url.startsWith(prefix))) route.config = { ...route.config, access: 'public' };
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access (deny by default)`);
    const scope = route.config?.scope;
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url, access, ...(scope ? { scope } : {}) });
  });
  app.addHook('preHandler', async (request, reply) => {
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (!access) throw new ApiError('FORBIDDEN');
    request.tenantId = tenantFromHeader(request);
    if (access === 'public') return;
    const rawToken = request.headers[TOKEN_HEADER];
    const token = Array.isArray(rawToken) ? rawToken[0] : rawToken;
    const apiKey = token ? undefined : bearerKeyOf(request);
    if (apiKey !== undefined) return checkApiKey(request, reply, apiKey, access);
    const ticket = (request.query as { ticket?: unknown } | undefined)?.ticket;
    const redeemTicket = request.routeOptions.config.redeemTicket;
    if (!token && redeemTicket && typeof ticket === 'string') {
      const granted = await redeemTicket(request, ticket);
      if (!granted) throw new ApiError('TOKEN_EXPIRED', undefined, TICKET_REFUSED);
      request.principal = granted.principal;
      request.tenantId = granted.tenantId;
      if (access !== 'authenticated' && !accessKeys(access).some((key) => granted.principal.authorities.has(key))) throw new ApiError('FORBIDDEN');
      return;
    }
    // From memory, or one query: the token, the tenant membership and the authorities there (modules/oauth/tokens.ts).
    const session = token ? await principals().verify(token, request.tenantId) : undefined;
    if (!session) {
      // An administrator's change says why (password, roles, disabled); the code stays TOKEN_EXPIRED.
      const reason = token ? await signOutReason(app.database.system, token) : undefined;
      throw new ApiError('TOKEN_EXPIRED', undefined, reason ? SIGN_OUT_REASONS[reason] : undefined);
    }
    if (session.rotatedToken) reply.header(TOKEN_HEADER, session.rotatedToken);
    const mayUse = session.mayUseTenant;
    const authorities = new Set(mayUse ? authoritiesFrom(session.type, session.grantedAuthorities) : []);
    // Known even when refused below, so the system log names who was refused.
    request.principal = {
      accountId: session.accountId, username: session.username, type: session.type,
      authorities, sessionId: session.sessionId, family: session.family,
    };
    if (!mayUse) throw new ApiError('FORBIDDEN');
    // A role (or DEMO=off for an administrator) requires two-factor and the account has not enrolled:
    // enrolment, userInfo and sign-out only.
    const endpoint = request.routeOptions.config.endpoint;
    const mustEnrol = session.mustEnrol || (requiredByPlatform(app.config, session.type) && !session.twoFactorOn);
    if (mustEnrol && !endpoint?.duringEnrolment) throw new ApiError('TWO_FACTOR_ENROLMENT_REQUIRED');
    if (access !== 'authenticated' && !accessKeys(access).some((key) => authorities.has(key))) throw new ApiError('FORBIDDEN');
    if (request.routeOptions.config.scope === 'platform' && session.type !== ACCOUNT_TYPE_ADMIN) throw new ApiError('FORBIDDEN', undefined, PLATFORM_ONLY);
    // A dangerous action: an enrolled account proves its second factor again (step-up).
    if (endpoint?.stepUp && session.twoFactorOn && !steppedUp(session.stepUpAt)) throw new ApiError('STEP_UP_REQUIRED');
  });
});
