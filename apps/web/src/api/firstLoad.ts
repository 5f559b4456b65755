/**
 * The endpoints the console calls before its lazily loaded code (sign-in, the current user, the
 * data-centre list), as the contract's schema-free routes (FIRST_LOAD_ROUTES), typed as the
 * endpoints they are part of: call() reads only an endpoint's method, path and kind, and the entry
 * chunk then ships without zod (vite.chunks.ts fails the build if zod comes back into it).
 */
import { FIRST_LOAD_ROUTES, type authEndpoints, type ssoEndpoints, type tenantEndpoints, type twoFactorEndpoints } from '@iot/contract';

type Routes = typeof FIRST_LOAD_ROUTES;

/** authEndpoints, tenantEndpoints, twoFactorEndpoints and ssoEndpoints, cut to the first-load routes. */
export const firstLoadEndpoints = FIRST_LOAD_ROUTES as unknown as {
  auth: Pick<typeof authEndpoints, keyof Routes['auth']>;
  tenant: Pick<typeof tenantEndpoints, keyof Routes['tenant']>;
  twoFactor: Pick<typeof twoFactorEndpoints, keyof Routes['twoFactor']>;
  sso: Pick<typeof ssoEndpoints, keyof Routes['sso']>;
};
