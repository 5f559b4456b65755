/** 开锁日志 routes: the unlock-record log, its export, and one lock's latest records. */
import { LOG_EXPORT_MAX, openRecordEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { requireLock } from '../deviceLog/filter.js';
import { openRecordLog } from './repo.js';

/** Registers the unlock-record routes. */
export async function lockOpenRecordRoutes(app: FastifyInstance): Promise<void> {
  openRecordLog.register(app, openRecordEndpoints, LOG_EXPORT_MAX);
  registerEndpoint(app, openRecordEndpoints.latest, ({ query, inTenant }) => inTenant(async (tx) => {
    const lock = await requireLock(tx, query);
    return openRecordLog.rows(tx, { lockId: lock.id }, query.limit);
  }));
}
