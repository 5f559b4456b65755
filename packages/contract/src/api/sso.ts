/**
 * Single sign-on with OpenID Connect (docs/identity.md "Single sign-on"):
 * authorization code flow with PKCE against the issuer the server is configured with (OIDC_*).
 * The console asks /oauth/sso whether it is on, starts with POST /oauth/sso/start (the issuer's
 * authorization URL and a sealed `transaction` to keep in the tab until the issuer sends the browser
 * back to the sign-in page), then hands the returned query string and the transaction to POST
 * /oauth/sso/callback, which answers like the password sign-in: a token, or a two-factor challenge.
 * The session token never travels in a URL. Rules per data centre map the person's claims (or groups)
 * to roles there; a person no rule matches is refused.
 */
import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { FIRST_LOAD_ROUTES } from './firstLoad.js';
import { int4Id, singleLine, text } from './input.js';
import { tokenResponse } from './auth.js';
import { twoFactorChallenge } from './twoFactor.js';

export const ssoStatus = z.object({
  enabled: z.boolean(),
  /** The issuer's name on the button ("Sign in with {name}"); null when SSO is off. */
  displayName: z.string().nullable(),
  /** Password sign-in into the request's data centre (`tenantId` header) is allowed; false: SSO only (administrators excepted). */
  passwordSignIn: z.boolean(),
});

export const ssoStartResponse = z.object({
  /** Where the browser goes: the issuer's authorization endpoint with state, nonce and the PKCE challenge. */
  url: z.string(),
  /** Sealed (AES-GCM) state, nonce, PKCE verifier, data centre and expiry; sent back with the callback. */
  transaction: z.string(),
});

export const ssoCallbackBody = z.strictObject({
  transaction: text().min(1).max(4096),
  /** The query string the issuer sent the browser back with (`?code=…&state=…&iss=…`, or `?error=…`). */
  callback: text().min(1).max(8192),
});

/** Claim names: letters, digits, `_ - : /` and `.` for nesting (`realm_access.roles`). */
const claimName = z.string().trim().min(1).max(128).regex(/^[A-Za-z0-9_:/.-]+$/);

export const ssoRuleBody = z.strictObject({
  /** The claim to look at; dots reach into objects (Keycloak `realm_access.roles`). */
  claim: claimName,
  /** Matches a claim equal to it, or an array claim (groups) containing it. */
  value: singleLine().trim().min(1).max(256),
  /** Roles of this data centre given to a matching person (at least one). */
  roleIds: z.array(int4Id).min(1).max(50),
});

/** Password sign-in on or off for the request's data centre; off needs OIDC_ISSUER and a rule of the data centre. */
export const passwordSignInBody = z.strictObject({ enabled: z.boolean() });

/** The back-channel logout request (OpenID Connect Back-Channel Logout 1.0 §2.5): the form field `logout_token` alone, unknown fields refused like every body. */
export const backchannelLogoutBody = z.strictObject({ logout_token: text().min(1).max(16_384) });

export const ssoRuleRecord = z.object({
  id: z.number().int(),
  claim: z.string(),
  value: z.string(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  createdAt: z.string(),
});
export type SsoRuleRecord = z.infer<typeof ssoRuleRecord>;

export const ssoEndpoints = {
  status: endpoint({ ...FIRST_LOAD_ROUTES.sso.status, response: ssoStatus }),
  start: endpoint({ ...FIRST_LOAD_ROUTES.sso.start, response: ssoStartResponse }),
  /** The token, or (two-factor on) a challenge for POST /oauth/token/twoFactor. */
  callback: endpoint({
    ...FIRST_LOAD_ROUTES.sso.callback, body: ssoCallbackBody,
    response: z.union([tokenResponse, twoFactorChallenge]),
  }),
  /** The issuer's end-session URL for the caller when it signed in with SSO (null otherwise); call before /oauth/logout. */
  logoutUrl: endpoint({
    method: 'GET', path: '/oauth/sso/logoutUrl', access: 'authenticated', kind: 'token', duringEnrolment: true,
    response: z.object({ url: z.string().nullable() }),
  }),
  /**
   * Back-Channel Logout (the provider's call, form-encoded): ends the platform sessions begun through the
   * provider session the logout token names. 400 on a token that does not check out.
   */
  backchannelLogout: endpoint({
    method: 'POST', path: '/oauth/sso/backchannelLogout', access: 'public', kind: 'tokenless', body: backchannelLogoutBody, response: z.null(),
  }),
  /** Turns password sign-in of the data centre on or off (refused with SSO_RULE_REQUIRED when SSO could not replace it). */
  passwordSignIn: endpoint({
    method: 'POST', path: '/iot/v1/sso/passwordSignIn', access: 'LOGIN_ACCOUNT', kind: 'token', stepUp: true,
    action: { label: { 'zh-CN': '设置密码登录', 'en-US': 'Set password sign-in' }, target: ['enabled'] },
    body: passwordSignInBody, response: z.object({ passwordSignIn: z.boolean() }),
  }),
  rule: {
    list: endpoint({ method: 'GET', path: '/iot/v1/sso/rule/list', access: 'LOGIN_ACCOUNT', kind: 'token', response: z.array(ssoRuleRecord) }),
    add: endpoint({
      method: 'POST', path: '/iot/v1/sso/rule', access: 'LOGIN_ACCOUNT', kind: 'token', stepUp: true,
      action: { label: { 'zh-CN': '添加单点登录映射规则', 'en-US': 'Add single sign-on rule' }, target: ['claim'] },
      body: ssoRuleBody, response: z.object({ id: z.number().int() }),
    }),
    delete: endpoint({
      method: 'POST', path: '/iot/v1/sso/rule/delete', access: 'LOGIN_ACCOUNT', kind: 'token',
      action: { label: { 'zh-CN': '删除单点登录映射规则', 'en-US': 'Delete single sign-on rule' }, target: ['id'] },
      // Deleting a rule takes roles away at the next sign-in: a role change, stepped up like role deletion.
      body: z.strictObject({ id: int4Id }), response: z.null(), stepUp: true,
    }),
  },
};
