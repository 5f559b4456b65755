/** Work-order routes (issue #25; contract api/workOrder.ts): list, detail, assignees, add, from alerts, edit, state changes. */
import { languageFromHeader, workOrderEndpoints as api } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/api-error.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { findWorkOrder, listAssignees, listWorkOrders } from './repo.js';
import { addFromAlerts, addWorkOrder, editWorkOrder, transitionWorkOrder } from './service.js';

/** Registers the work-order routes. */
export async function workOrderRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, api.list, ({ query, inTenant }) => inTenant((tx) => listWorkOrders(tx, query), { read: true }));
  registerEndpoint(app, api.detail, async ({ query, inTenant }) => {
    const record = await inTenant((tx) => findWorkOrder(tx, query.id), { read: true });
    if (!record) throw new ApiError('NOT_FOUND');
    return record;
  });
  registerEndpoint(app, api.assignees, ({ inTenant }) => inTenant((tx) => listAssignees(tx), { read: true }));
  registerEndpoint(app, api.add, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => addWorkOrder(tx, tenantId, principal.username, body)));
  registerEndpoint(app, api.fromAlerts, ({ body, inTenant, tenantId, principal, request }) =>
    inTenant((tx) => addFromAlerts(tx, tenantId, principal.username, body, languageFromHeader(request.headers['accept-language']))));
  registerEndpoint(app, api.edit, ({ body, inTenant }) => inTenant((tx) => editWorkOrder(tx, body)));
  registerEndpoint(app, api.transition, ({ body, inTenant, principal }) => inTenant((tx) => transitionWorkOrder(tx, principal.username, body)));
}
