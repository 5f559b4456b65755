/**
 * 下发日志 routes: command list, one lock's queue, cancel, and the payload actually sent through the
 * ISP route (MQTT envelope) and the ZIGUANG vendor route (message envelope). All in the tenant's
 * transaction: another tenant's command or lock id is 404.
 */
import { commandEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.js';
import { cancelCommand } from './outbox.js';
import { commandFollowers } from '../../wiring.js';
import { maskedDownlink, maskedEnvelope } from './payload.js';
import { lockCommands, listCommands } from './repo.js';
import { queueHead } from '../lockDevice/repo.js';
import { commandForPara } from './lookup.js';

export async function commandRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, commandEndpoints.list, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listCommands(tx, filter, current, size));
  });

  registerEndpoint(app, commandEndpoints.simpleList, ({ query, inTenant }) =>
    inTenant(async (tx) => ({ ...(await queueHead(tx, query.lockId, app.config.WAKE_WINDOW_MS)), commands: await lockCommands(tx, query.lockId) })));

  registerEndpoint(app, commandEndpoints.cancel, ({ body, inTenant }) => inTenant((tx) => cancelCommand(tx, body.id, commandFollowers)));

  registerEndpoint(app, commandEndpoints.zgDownPara, ({ query, inTenant }) =>
    inTenant(async (tx) => {
      const { found, payload } = await commandForPara(tx, query.id);
      return { id: found.id, imei: found.imei, state: found.state, sent: found.sentAt !== null, message: maskedDownlink(payload) };
    }));

  registerEndpoint(app, commandEndpoints.ispDownPara, ({ query, inTenant }) =>
    inTenant(async (tx) => {
      const { found, payload } = await commandForPara(tx, query.id);
      return {
        id: found.id, imei: found.imei, state: found.state, sent: found.sentAt !== null, attempts: found.attempts,
        sentAt: found.sentAt, deliveredAt: found.deliveredAt, ...maskedEnvelope(found.imei, payload),
      };
    }));
}
