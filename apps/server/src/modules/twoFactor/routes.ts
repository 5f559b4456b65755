/** Two-factor routes: the caller's status, enrolment, turning off, recovery codes and step-up; an administrator's reset (enrolment.ts, step-up.ts). */
import { twoFactorEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { authoritiesEverywhere } from '../account/guard.js';
import { beginEnrolment, confirmEnrolment, disableOwnTwoFactor, renewRecoveryCodes, requiredByPlatform, resetTwoFactor, twoFactorStatus } from './enrolment.js';
import { stepUp } from './step-up.js';

export async function twoFactorRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  const system = app.database.system;
  // Role bindings of every data centre count: read on the owner connection (a tenant's sees its own).
  registerEndpoint(app, twoFactorEndpoints.status, ({ principal }) =>
    twoFactorStatus(system, principal.accountId, requiredByPlatform(app.config, principal.type)));
  registerEndpoint(app, twoFactorEndpoints.begin, ({ principal, inTenant }) => inTenant((tx) => beginEnrolment(tx, box, principal)));
  registerEndpoint(app, twoFactorEndpoints.confirm, ({ body, principal, inTenant }) => inTenant((tx) => confirmEnrolment(tx, box, principal.accountId, body.code)));
  registerEndpoint(app, twoFactorEndpoints.disable, async ({ principal, inTenant }) => {
    const { required } = await twoFactorStatus(system, principal.accountId, requiredByPlatform(app.config, principal.type));
    return inTenant((tx) => disableOwnTwoFactor(tx, principal.accountId, required));
  });
  registerEndpoint(app, twoFactorEndpoints.recoveryCodes, ({ principal, inTenant }) => inTenant((tx) => renewRecoveryCodes(tx, principal.accountId)));
  registerEndpoint(app, twoFactorEndpoints.reset, async ({ body, principal, inTenant }) => {
    const targetAuthorities = await authoritiesEverywhere(system, body.accountId);
    return inTenant((tx) => resetTwoFactor(tx, principal, body.accountId, targetAuthorities));
  });
  // Throttled and logged like a sign-in's second step (step-up.ts), not by the audit plugin.
  registerEndpoint(app, twoFactorEndpoints.stepUp, ({ body, principal, request, tenantId }) =>
    stepUp({ db: system, config: app.config, tenantId, clientIp: request.ip, userAgent: request.headers['user-agent'] }, principal, body.code), { rateLimitPerMinute: 60 });
}
