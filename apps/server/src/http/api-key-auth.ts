/**
 * Requests signed with an API key (`Authorization: Bearer iotk_…`; docs/identity.md "API
 * keys"), for the auth hook (auth-plugin.ts): the key (from this process's cache, modules/apiKey/
 * key-cache.ts) becomes a principal of its data centre, an operator holding the key's scope
 * intersected with its creator's current authorities there, so tenancy, authority checks and the
 * system log work as for a person. Refused with 403 TOKEN_EXPIRED: an unknown, revoked or expired key;
 * with 403 FORBIDDEN: a client address outside its networks, a tenantId header naming another data
 * centre, a route people only may call (sign-in, user info, sign-out, the API-key routes), or a
 * missing authority; with 429: over its rate limits (modules/apiKey/rate-limit.ts).
 */
import { accessKeys, API_KEY_PREFIX, apiKeyEndpoints, authEndpoints, twoFactorEndpoints, type RouteAccess } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiKeyCache, createApiKeyCache } from '../modules/apiKey/key-cache.js';
import { addressAllowed, prefixOf } from '../modules/apiKey/keys.js';
import { createKeyRateLimiter } from '../modules/apiKey/rate-limit.js';
import { ApiError } from './api-error.js';

/** Routes a key may never call: signing in and out, the console's user info, managing keys. */
// Keys neither sign in, make keys, nor enrol in or reset two-factor (a person's second factor).
const PEOPLE_ONLY = new Set([...Object.values(authEndpoints), ...Object.values(apiKeyEndpoints), ...Object.values(twoFactorEndpoints)].map((e) => `${e.method} ${e.path}`));

const KEY_REFUSED = { 'zh-CN': 'API 密钥不能调用此接口', 'en-US': 'An API key cannot call this route' };
const NETWORK_REFUSED = { 'zh-CN': '该 API 密钥不允许从此地址使用', 'en-US': 'This API key may not be used from this address' };
const TENANT_REFUSED = { 'zh-CN': 'API 密钥只能用于创建它的数据中心', 'en-US': 'An API key works only in the data centre it was made in' };
const KEY_INVALID = { 'zh-CN': 'API 密钥无效、已吊销或已过期', 'en-US': 'The API key is unknown, revoked or expired' };

declare module 'fastify' {
  interface FastifyInstance {
    /** The verified API keys of this process (modules/apiKey/key-cache.ts). */
    apiKeys: ApiKeyCache;
  }
}

/** True when an API key may call the route at all (its authorities decide then): not people-only, not `authenticated`, not platform-wide. */
export function keyMayCall(method: string, url: string, access: RouteAccess, scope: 'platform' | undefined): boolean {
  return access !== 'public' && access !== 'authenticated' && scope !== 'platform' && !PEOPLE_ONLY.has(`${method} ${url}`);
}

/** The security scheme name of API keys in the OpenAPI document. */
export const API_KEY_SCHEME = 'apiKey';

/** The key of an `Authorization: Bearer iotk_…` header; undefined without one (another scheme: no key). */
export function bearerKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^bearer /i.test(header)) return undefined;
  const key = header.slice(7).trim();
  return key.startsWith(API_KEY_PREFIX) ? key : undefined;
}

/** Sets up key checking on `app` (at the auth plugin's registration); returns the check the auth hook runs. */
export function apiKeyAuthentication(app: FastifyInstance) {
  let cache: ApiKeyCache | undefined;
  const keys = () => {
    cache ??= createApiKeyCache(app.database, { lifetimeMs: app.config.PRINCIPAL_CACHE_MS, log: app.log });
    return cache;
  };
  const limiter = createKeyRateLimiter();
  app.decorate('apiKeys', { getter: keys });
  app.addHook('onClose', async () => cache?.close());

  return async (request: FastifyRequest, reply: FastifyReply, key: string, access: RouteAccess): Promise<void> => {
    const prefix = prefixOf(key);
    const principal = prefix ? await keys().verify(key, prefix, { clientIp: request.ip, userAgent: request.headers['user-agent'] }) : undefined;
    if (!principal) throw new ApiError('TOKEN_EXPIRED', undefined, KEY_INVALID);
    const asked = request.headers.tenantid;
    request.tenantId = principal.tenantId;
    const authorities = new Set(principal.authorities);
    request.principal = {
      accountId: principal.accountId, username: principal.username, type: principal.type, authorities,
      sessionId: 0, family: `apiKey:${principal.apiKeyId}`, apiKey: { id: principal.apiKeyId, name: principal.name },
    };
    // Before counting: a key used from outside its networks must not use up its owner's quota.
    if (!addressAllowed(request.ip, principal.allowedNetworks)) throw new ApiError('FORBIDDEN', undefined, NETWORK_REFUSED);
    const { config } = app;
    await limiter.check(reply, principal.apiKeyId, principal.accountId,
      config.API_KEY_RATE_BY_TENANT[principal.tenantId] ?? { perKey: config.API_KEY_RATE_PER_MINUTE, perAccount: config.API_KEY_ACCOUNT_RATE_PER_MINUTE });
    if (asked !== undefined && asked !== '' && asked !== String(principal.tenantId)) throw new ApiError('FORBIDDEN', undefined, TENANT_REFUSED);
    if (!keyMayCall(request.method, request.routeOptions.url ?? '', access, request.routeOptions.config.scope)) throw new ApiError('FORBIDDEN', undefined, KEY_REFUSED);
    if (!accessKeys(access).some((k) => authorities.has(k))) throw new ApiError('FORBIDDEN');
  };
}
