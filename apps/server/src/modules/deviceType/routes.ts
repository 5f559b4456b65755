/** 设备类型 routes: list, options, add, edit, delete; each write audited in its transaction. */
import { deviceTypeEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { addDeviceType, deleteDeviceType, deviceTypeOptions, listDeviceTypes, updateDeviceType } from './catalogue.js';

/** Registers the device-type routes. */
export async function deviceTypeRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, deviceTypeEndpoints.list, ({ query, inTenant }) => inTenant((tx) => listDeviceTypes(tx, query), { read: true }));
  registerEndpoint(app, deviceTypeEndpoints.options, ({ inTenant }) => inTenant((tx) => deviceTypeOptions(tx), { read: true }));
  registerEndpoint(app, deviceTypeEndpoints.add, ({ body, tenantId, inTenant }) => inTenant((tx) => addDeviceType(tx, tenantId, body)));
  registerEndpoint(app, deviceTypeEndpoints.update, ({ body: { id, ...input }, inTenant }) => inTenant((tx) => updateDeviceType(tx, id, input)));
  registerEndpoint(app, deviceTypeEndpoints.delete, ({ body, inTenant }) => inTenant((tx) => deleteDeviceType(tx, body.id)));
}
