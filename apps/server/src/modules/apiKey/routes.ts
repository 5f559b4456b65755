/** API-key routes: create, list, revoke, rotate in the request's data centre (lifecycle.ts). */
import { apiKeyEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from './lifecycle.js';

export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, apiKeyEndpoints.create, ({ body, principal, tenantId, inTenant }) => inTenant((tx) => createApiKey(tx, tenantId, principal, body)));
  registerEndpoint(app, apiKeyEndpoints.list, ({ inTenant }) => inTenant((db) => listApiKeys(db)));
  registerEndpoint(app, apiKeyEndpoints.revoke, async ({ body, tenantId, inTenant }) => {
    await inTenant((tx) => revokeApiKey(tx, tenantId, body.id));
    return null;
  });
  registerEndpoint(app, apiKeyEndpoints.rotate, ({ body, tenantId, inTenant }) => inTenant((tx) => rotateApiKey(tx, tenantId, body.id, body.graceS)));
}
