/** GET /static/config.json: the data-centre list of the header's selector, `[{ label, value }]` (spec §7). */
import { tenantEndpoints } from '@iot/contract';
import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { tenants } from '../../db/schema.js';
import { registerEndpoint } from '../../http/endpoint.js';

export async function tenantRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, tenantEndpoints.config, async () => {
    const rows = await app.database.system.select().from(tenants).orderBy(asc(tenants.id));
    return rows.map((row) => ({ label: row.name, value: row.id }));
  }, { raw: true });
}
