/** 心跳日志 routes: the heartbeat log, its export, and one lock's battery / signal series. */
import { heartbeatLogEndpoints, LOG_EXPORT_MAX } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { heartbeatLog } from './repo.js';
import { heartbeatSeries } from './series.js';

/** Registers the heartbeat-log routes. */
export async function logHeartbeatRoutes(app: FastifyInstance): Promise<void> {
  heartbeatLog.register(app, heartbeatLogEndpoints, LOG_EXPORT_MAX);
  registerEndpoint(app, heartbeatLogEndpoints.batteryList, async ({ query, inTenant }) => {
    const { points, ...series } = await inTenant((tx) => heartbeatSeries(tx, query));
    return { ...series, points: points.map(({ time, battery }) => ({ time, battery })) };
  });
  registerEndpoint(app, heartbeatLogEndpoints.rssiList, async ({ query, inTenant }) => {
    const { points, ...series } = await inTenant((tx) => heartbeatSeries(tx, query));
    return { ...series, points: points.map(({ time, rssi, snr }) => ({ time, rssi, snr })) };
  });
}
