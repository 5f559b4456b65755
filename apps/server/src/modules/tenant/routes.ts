/** GET /static/config.json: the data-centre list of the header's selector, `[{ label, value }]` (spec §7). */
import { tenantEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { listTenantOptions } from './service.js';

export async function tenantRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, tenantEndpoints.config, () => listTenantOptions(app.database), { raw: true });
}
