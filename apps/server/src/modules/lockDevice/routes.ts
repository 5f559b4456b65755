/** Lock routes: list (门锁信息), the lock picker's list (every page that picks a lock) and fleet analysis (首页 KPIs). */
import { lockEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { analyseLocks, listLockOptions, listLocks } from './repo.js';

export async function lockDeviceRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, lockEndpoints.list, ({ query, inTenant }) =>
    inTenant((tx) => listLocks(tx, { keyword: query.keyword, online: query.online, lowBattery: query.lowBattery }, query.current, query.size)));
  registerEndpoint(app, lockEndpoints.lockRoomList, ({ query, inTenant }) =>
    inTenant((tx) => listLockOptions(tx, query.keyword, query.size)));
  registerEndpoint(app, lockEndpoints.analysis, ({ inTenant }) => inTenant((tx) => analyseLocks(tx)));
}
