/** 分组管理 routes: list, options, add, edit, delete, add members (by a device target), remove members. */
import { lockGroupEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { addGroup, addMembers, deleteGroup, groupOptions, listGroups, removeMembers, updateGroup } from './groups.js';

/** Registers the lock-group routes. */
export async function lockGroupRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, lockGroupEndpoints.list, ({ query, inTenant }) => inTenant((tx) => listGroups(tx, query)));
  registerEndpoint(app, lockGroupEndpoints.options, ({ inTenant }) => inTenant((tx) => groupOptions(tx)));
  registerEndpoint(app, lockGroupEndpoints.add, ({ body, tenantId, inTenant }) => inTenant((tx) => addGroup(tx, tenantId, body)));
  registerEndpoint(app, lockGroupEndpoints.update, ({ body: { id, ...input }, inTenant }) => inTenant((tx) => updateGroup(tx, id, input)));
  registerEndpoint(app, lockGroupEndpoints.delete, ({ body, inTenant }) => inTenant((tx) => deleteGroup(tx, body.id)));
  registerEndpoint(app, lockGroupEndpoints.addMembers, ({ body, inTenant }) => inTenant((tx) => addMembers(tx, body.groupId, body.target, app.config.WAKE_WINDOW_MS)));
  registerEndpoint(app, lockGroupEndpoints.removeMembers, ({ body, inTenant }) => inTenant((tx) => removeMembers(tx, body.groupId, body.lockIds)));
}
