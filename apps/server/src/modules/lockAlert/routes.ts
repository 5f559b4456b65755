/** 报警日志 / 门锁警告 routes: alert list, export, acknowledgement. */
import { alertEndpoints, LOG_EXPORT_MAX } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { enqueueAcknowledgedAlarms } from '../subscription/outbox.js';
import { acknowledgeAlerts, alertLog } from './repo.js';

/** Registers the alert routes. */
export async function lockAlertRoutes(app: FastifyInstance): Promise<void> {
  alertLog.register(app, alertEndpoints, LOG_EXPORT_MAX);
  registerEndpoint(app, alertEndpoints.acknowledge, async ({ body, inTenant, principal }) => ({
    acknowledged: await inTenant(async (tx) => {
      const acknowledged = await acknowledgeAlerts(tx, body.ids, principal.username, body.note);
      await enqueueAcknowledgedAlarms(tx, acknowledged, principal.username); // open platform: same transaction
      return acknowledged.length;
    }),
  }));
}
