/**
 * GET /static/config.json: the data-centre list of the header's selector, `[{ label, value }]` (spec §7);
 * the request data centre's settings (any signed-in account) and its time zone (TENANT_SETTINGS; the
 * system log records the zone before and after, modules/audit/targets.ts).
 */
import { tenantEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { listTenantOptions, setTimeZone, tenantSettingsOf } from './service.js';

export async function tenantRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, tenantEndpoints.config, () => listTenantOptions(app.database), { raw: true });
  registerEndpoint(app, tenantEndpoints.settings, ({ tenantId }) => tenantSettingsOf(app.database.system, tenantId));
  registerEndpoint(app, tenantEndpoints.saveSettings, ({ body, tenantId, inTenant }) => inTenant((tx) => setTimeZone(tx, tenantId, body.timeZone)));
}
