/**
 * The OpenID provider as the server's client sees it (openid-client):
 * discovery once per process (again after a failure), the authorization URL of a sign-in with PKCE
 * (S256), state and nonce, and the code exchange that checks all three, the ID token's signature,
 * issuer, audience and expiry (openid-client), then adds the UserInfo claims the ID token lacks
 * (providers put groups in either; the signed ID token wins). The state, nonce and PKCE verifier travel sealed (AES-256-GCM with
 * the platform key, crypto/secret-box.ts) in the `transaction` the console keeps in its tab for
 * TRANSACTION_S: nothing is stored, every instance sharing the key accepts it. Errors: ApiError
 * SSO_FAILED for anything the provider or the browser got wrong (logged without secrets).
 */
import * as oidc from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import type { SecretBox } from '../../crypto/secret-box.js';
import { ApiError } from '../../http/api-error.js';
import type { OidcSettings } from './settings.js';

/** How long a started sign-in may take at the provider, s. */
const TRANSACTION_S = 600;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

interface Transaction {
  kind: 'sso';
  state: string;
  nonce: string;
  verifier: string;
  tenantId: number;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

/** Claims of a signed-in person: the ID token's, and UserInfo's it lacks; `sub` and `iss` always present. */
export type Claims = Record<string, unknown> & { sub: string; iss: string };

export interface OidcProvider {
  /** The authorization URL and the sealed transaction of a new sign-in into data centre `tenantId`. */
  start(tenantId: number): Promise<{ url: string; transaction: string }>;
  /** Checks the provider's answer (`callback`: the query string it sent back) against `transaction`; the claims and the data centre. */
  finish(transaction: string, callback: string): Promise<{ claims: Claims; tenantId: number }>;
  /** The provider's end-session URL (undefined when it has none). */
  endSessionUrl(): Promise<string | undefined>;
  /** The provider's discovered metadata (issuer, jwks_uri…), for checking its logout tokens (backchannel.ts). */
  metadata(): Promise<oidc.ServerMetadata>;
}

/** A client of the provider in `settings`, sealing transactions with `box`. */
export function oidcProvider(settings: OidcSettings, box: SecretBox, log: FastifyBaseLogger): OidcProvider {
  let discovered: Promise<oidc.Configuration> | undefined;
  const insecure = settings.issuer.protocol === 'http:';
  if (insecure && !LOCAL_HOSTS.has(settings.issuer.hostname)) throw new Error('Invalid configuration: OIDC_ISSUER must be https (http only for localhost)');
  const configuration = () => {
    discovered ??= oidc.discovery(settings.issuer, settings.clientId, settings.clientSecret, settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None(),
      insecure ? { execute: [oidc.allowInsecureRequests] } : undefined).catch((error: unknown) => {
      discovered = undefined;
      log.error({ err: error, issuer: settings.issuer.href }, 'OpenID provider discovery failed');
      throw new ApiError('SSO_FAILED');
    });
    return discovered;
  };
  const open = (sealed: string): Transaction => {
    try {
      const value = JSON.parse(box.open(sealed)) as Transaction;
      if (value.kind === 'sso' && value.expiresAt > Date.now()) return value;
    } catch { /* damaged or forged: refused below */ }
    throw new ApiError('SSO_FAILED');
  };
  return {
    async start(tenantId) {
      const config = await configuration();
      const verifier = oidc.randomPKCECodeVerifier();
      const transaction: Transaction = {
        kind: 'sso', state: oidc.randomState(), nonce: oidc.randomNonce(), verifier, tenantId, expiresAt: Date.now() + TRANSACTION_S * 1000,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri, scope: settings.scopes, state: transaction.state, nonce: transaction.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      });
      return { url: url.href, transaction: box.seal(JSON.stringify(transaction)) };
    },
    async finish(sealed, callback) {
      const transaction = open(sealed);
      const config = await configuration();
      const current = new URL(settings.redirectUri);
      current.search = callback.startsWith('?') ? callback : `?${callback}`;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: transaction.verifier, expectedState: transaction.state, expectedNonce: transaction.nonce, idTokenExpected: true,
        });
        const idClaims = tokens.claims();
        if (!idClaims) throw new Error('no ID token');
        const userInfo = config.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub) : {};
        return { claims: { ...userInfo, ...idClaims } as Claims, tenantId: transaction.tenantId };
      } catch (error) {
        log.warn({ err: error instanceof Error ? { name: error.name, message: error.message } : error }, 'single sign-on refused');
        throw new ApiError('SSO_FAILED');
      }
    },
    async endSessionUrl() {
      const config = await configuration();
      if (!config.serverMetadata().end_session_endpoint) return undefined;
      return oidc.buildEndSessionUrl(config, { post_logout_redirect_uri: settings.postLogoutUri }).href;
    },
    async metadata() {
      return (await configuration()).serverMetadata();
    },
  };
}
