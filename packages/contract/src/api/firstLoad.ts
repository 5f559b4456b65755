/**
 * The routes the console calls before any of its lazily loaded code runs: password sign-in, its
 * two-factor step, single sign-on, the current user and the data-centre list. Declared here without
 * their schemas, in a module that imports no zod, so the web's entry chunk ships without zod (~178 KB
 * raw); the endpoint tables (auth.ts, tenant.ts, twoFactor.ts, sso.ts) spread each route into its
 * endpoint beside the schemas, so every method, path and access rule is still written once.
 */
import type { Endpoint } from './endpoint.js';

/** An endpoint's route: what a client needs to call it, without the schemas. */
export type EndpointRoute = Pick<Endpoint, 'method' | 'path' | 'access' | 'kind' | 'duringEnrolment'>;

/** The first-load routes, grouped by the endpoint table they belong to (authEndpoints, tenantEndpoints, ...). */
export const FIRST_LOAD_ROUTES = {
  auth: {
    publicKey: { method: 'GET', path: '/oauth/key', access: 'public', kind: 'tokenless' },
    captcha: { method: 'GET', path: '/oauth/checkCode', access: 'public', kind: 'tokenless' },
    signIn: { method: 'POST', path: '/oauth/token', access: 'public', kind: 'tokenless' },
    userInfo: { method: 'GET', path: '/oauth/userInfo', access: 'authenticated', kind: 'token', duringEnrolment: true },
  },
  tenant: {
    config: { method: 'GET', path: '/static/config.json', access: 'public', kind: 'tokenless' },
  },
  twoFactor: {
    signIn: { method: 'POST', path: '/oauth/token/twoFactor', access: 'public', kind: 'tokenless' },
  },
  sso: {
    status: { method: 'GET', path: '/oauth/sso', access: 'public', kind: 'tokenless' },
    start: { method: 'POST', path: '/oauth/sso/start', access: 'public', kind: 'tokenless' },
    callback: { method: 'POST', path: '/oauth/sso/callback', access: 'public', kind: 'tokenless' },
  },
} as const satisfies Record<string, Record<string, EndpointRoute>>;
