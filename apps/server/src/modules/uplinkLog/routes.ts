/** 上报日志 routes: the uplink log page by page, and its CSV / Excel export. */
import { LOG_EXPORT_MAX, uplinkLogEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { uplinkLog } from './repo.js';

/** Registers the uplink-log routes. */
export async function uplinkLogRoutes(app: FastifyInstance): Promise<void> {
  uplinkLog.register(app, uplinkLogEndpoints, LOG_EXPORT_MAX);
}
