/** System log routes (系统日志): the tenant's log page by page, and its CSV export. */
import { SYSTEM_LOG_EXPORT_MAX, systemLogEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { toCsv } from './csv.js';
import { exportAudit, listAudit } from './repo.js';

/** Registers the system-log routes. */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, systemLogEndpoints.list, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listAudit(tx, filter, current, size));
  });
  registerEndpoint(app, systemLogEndpoints.export, async ({ query, inTenant, reply }) => {
    const rows = await inTenant((tx) => exportAudit(tx, query, SYSTEM_LOG_EXPORT_MAX));
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '');
    reply.header('content-disposition', `attachment; filename="system-log-${stamp}.csv"`);
    return toCsv(rows);
  }, { contentType: 'text/csv; charset=utf-8' });
}
