/** Route of 设备信息 (contract lockInformationEndpoints): one lock's whole picture in one read. */
import { lockInformationEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { lockInformation } from './information.js';

export async function lockInformationRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, lockInformationEndpoints.information, ({ query, inTenant }) =>
    inTenant((tx) => lockInformation(tx, query.imei, app.config.WAKE_WINDOW_MS)));
}
