/**
 * OpenID Connect Back-Channel Logout 1.0 (docs/identity.md "Single sign-on"): the provider
 * posts a logout token when a person's session there ends. The token is a JWT checked with jose
 * against the provider's JWKS (from its discovery document): signature, `iss` = the discovered issuer,
 * `aud` = our client id, `iat` within the last MAX_AGE_S (and `exp` when present), a `jti`, the
 * `events` claim holding the back-channel-logout event, no `nonce` (so an ID token cannot pass for
 * one), and `sub` and/or `sid`. A `jti` seen within MAX_AGE_S is refused (per process), so a captured
 * token cannot end a later sign-in. Anything wrong is one 400 on `body.logout_token`, never why.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { FastifyBaseLogger } from 'fastify';
import { fieldError } from '../../http/api-error.js';
import type { OidcProvider } from './provider.js';

const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How old a logout token may be, s (also how long its jti is remembered). */
const MAX_AGE_S = 300;

/** What a checked logout token names: the provider (issuer), the person (`sub`) and/or the provider session (`sid`). */
export interface LogoutClaims {
  issuer: string;
  sub: string | undefined;
  sid: string | undefined;
}

const refused = () => fieldError('body.logout_token', '登出令牌无效', 'The logout token is not valid');
const textOrUndefined = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** A checker of logout tokens of `provider` for client `clientId`; throws 400 VALIDATION_FAILED on `body.logout_token`. */
export function logoutTokenChecker(provider: OidcProvider, clientId: string, log: FastifyBaseLogger) {
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  const seen = new Map<string, number>();
  return async (token: string): Promise<LogoutClaims> => {
    try {
      const metadata = await provider.metadata();
      if (!metadata.jwks_uri) throw new Error('the provider publishes no jwks_uri');
      jwks ??= createRemoteJWKSet(new URL(metadata.jwks_uri));
      const { payload } = await jwtVerify(token, jwks, {
        issuer: metadata.issuer, audience: clientId, maxTokenAge: MAX_AGE_S, clockTolerance: 30, requiredClaims: ['iat', 'jti', 'events'],
      });
      const events = payload.events as Record<string, unknown> | undefined;
      if (typeof events !== 'object' || events === null || typeof events[LOGOUT_EVENT] !== 'object') throw new Error('no back-channel logout event');
      if ('nonce' in payload) throw new Error('a nonce in a logout token');
      const claims = { issuer: metadata.issuer, sub: textOrUndefined(payload.sub), sid: textOrUndefined(payload.sid) };
      if (!claims.sub && !claims.sid) throw new Error('neither sub nor sid');
      const now = Date.now();
      for (const [jti, until] of seen) if (until < now) seen.delete(jti);
      const jti = String(payload.jti);
      if (seen.has(jti)) throw new Error('a logout token used twice');
      seen.set(jti, now + MAX_AGE_S * 1000);
      return claims;
    } catch (error) {
      log.warn({ err: error instanceof Error ? { name: error.name, message: error.message } : error }, 'back-channel logout refused');
      throw refused();
    }
  };
}
