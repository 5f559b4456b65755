/**
 * GET /static/config.json: the data-centre list of the header's selector, `[{ label, value }]` (spec §7);
 * the request data centre's settings (any signed-in account) and its time zone and default stay
 * buffers (TENANT_SETTINGS; the system log records each before and after, modules/auditLog/targets.ts).
 */
import { tenantEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { listTenantOptions } from './options.js';
import { saveTenantSettings, tenantSettingsOf } from './settings.js';

export async function tenantRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, tenantEndpoints.config, () => listTenantOptions(app.database), { raw: true });
  registerEndpoint(app, tenantEndpoints.settings, ({ tenantId }) => tenantSettingsOf(app.database.system, tenantId));
  registerEndpoint(app, tenantEndpoints.saveSettings, ({ body, tenantId, inTenant }) => inTenant((tx) => saveTenantSettings(tx, tenantId, body)));
}
