/**
 * The OIDC_* settings of single sign-on (docs/deploy.md "Single sign-on"), part of the
 * server configuration (config.ts). SSO is off while OIDC_ISSUER is unset; with it set, the client id,
 * the redirect URI and the button's name are required too (the secret only for confidential clients).
 */
import { z } from 'zod';

export const oidcSettings = {
  /** The provider's issuer URL (its discovery document is `<issuer>/.well-known/openid-configuration`). http only for localhost. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(256).optional(),
  /** Confidential clients (client_secret_basic); unset: a public client (PKCE alone). */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** The console's sign-in page as the provider knows it, e.g. https://iot.example.com/api/login. */
  OIDC_REDIRECT_URI: z.url().optional(),
  /** Where the provider's sign-out sends the browser back; unset: OIDC_REDIRECT_URI. */
  OIDC_POST_LOGOUT_URI: z.url().optional(),
  /** The name on the sign-in button ("Sign in with {name}"). */
  OIDC_DISPLAY_NAME: z.string().min(1).max(64).default('SSO'),
  /** Scopes asked for, space-separated (add `groups` where the provider needs it). */
  OIDC_SCOPES: z.string().regex(/^[\w:./-]+( [\w:./-]+)*$/).default('openid profile email'),
  /** The claim naming the account created at first sign-in (falls back to email, then the subject). */
  OIDC_USERNAME_CLAIM: z.string().min(1).max(64).default('preferred_username'),
};

/** The settings of a configured provider, or undefined when SSO is off. */
export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
  postLogoutUri: string;
  displayName: string;
  scopes: string;
  usernameClaim: string;
}

type Env = z.output<ReturnType<typeof z.object<typeof oidcSettings>>>;

/** Reads the settings; throws naming the missing variable when OIDC_ISSUER is set without what it needs. */
export function oidcSettingsOf(config: Env): OidcSettings | undefined {
  if (!config.OIDC_ISSUER) return undefined;
  if (!config.OIDC_CLIENT_ID) throw new Error('Invalid configuration: OIDC_CLIENT_ID is required with OIDC_ISSUER');
  if (!config.OIDC_REDIRECT_URI) throw new Error('Invalid configuration: OIDC_REDIRECT_URI is required with OIDC_ISSUER');
  return {
    issuer: new URL(config.OIDC_ISSUER), clientId: config.OIDC_CLIENT_ID, clientSecret: config.OIDC_CLIENT_SECRET,
    redirectUri: config.OIDC_REDIRECT_URI, postLogoutUri: config.OIDC_POST_LOGOUT_URI ?? config.OIDC_REDIRECT_URI,
    displayName: config.OIDC_DISPLAY_NAME, scopes: config.OIDC_SCOPES, usernameClaim: config.OIDC_USERNAME_CLAIM,
  };
}
