/**
 * Remote unlock routes (contract api/remoteUnlock.ts): a lock's remote-unlock overview, a
 * request, a second operator's approval, and marking a door high-security. Tenant transaction (the
 * system-log row is written in it); a queued command wakes the dispatchers through its
 * `command.queued` event once committed.
 */
import { remoteUnlockEndpoints as E } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import type { Actor } from '../credential/ops.js';
import { setHighSecurity } from '../lockDevice/high-security.js';
import { approveUnlock, overview, requestUnlock } from './requests.js';

export async function remoteUnlockRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  const actorOf = (tenantId: number, principal: { username: string }): Actor => ({ tenantId, username: principal.username, box });

  registerEndpoint(app, E.overview, ({ query, inTenant, tenantId }) => inTenant((tx) => overview(tx, tenantId, query.lockId), { read: true }));
  registerEndpoint(app, E.request, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => requestUnlock(tx, actorOf(tenantId, principal), body.lockId, body.reason)));
  registerEndpoint(app, E.approve, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => approveUnlock(tx, actorOf(tenantId, principal), body.id)));
  registerEndpoint(app, E.highSecurity, ({ body, inTenant, tenantId }) => inTenant((tx) => setHighSecurity(tx, tenantId, body.lockId, body.highSecurity)));
}
