/** Role routes (角色权限): list, add, update, delete; and role binding (绑定角色). */
import { roleEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { listRoles } from './repo.js';
import { bindRoles } from './bindings.js';
import { addRole, deleteRole, updateRole } from './roles.js';

/** Registers the role and binding routes. */
export async function roleRoutes(app: FastifyInstance): Promise<void> {
  const system = app.database.system;
  registerEndpoint(app, roleEndpoints.list, ({ query, inTenant }) =>
    inTenant((tx) => listRoles(tx, query.keyword, query.current, query.size, query)));
  registerEndpoint(app, roleEndpoints.add, (ctx) => addRole({ ...ctx, system }, ctx.body));
  registerEndpoint(app, roleEndpoints.update, (ctx) => updateRole({ ...ctx, system }, ctx.body));
  registerEndpoint(app, roleEndpoints.delete, (ctx) => deleteRole({ ...ctx, system }, ctx.body.id));
  registerEndpoint(app, roleEndpoints.bind, (ctx) => bindRoles({ ...ctx, system }, ctx.body));
}
