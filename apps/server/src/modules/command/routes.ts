/**
 * 下发日志 routes: command list, one lock's queue, cancel, and the payload actually sent through the
 * ISP route (MQTT envelope) and the ZIGUANG vendor route (message envelope). All in the tenant's
 * transaction: another tenant's command or lock id is 404.
 */
import { commandEndpoints } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { locks } from '../../db/schema.js';
import { ApiError } from '../../http/api-error.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { cancelCommand } from './outbox.js';
import { maskedDownlink, maskedEnvelope } from './payload.js';
import { findCommand, lockCommands, listCommands } from './repo.js';
import { nextWakeSql } from '../lockDevice/repo.js';

/** The command of `id` with what its payload needs; 404 when not in the tenant. */
async function commandForPara(tx: Tx, id: number) {
  const found = await findCommand(tx, id);
  if (!found) throw new ApiError('NOT_FOUND');
  const sentAtMs = found.sentAt ? Date.parse(found.sentAt) : null;
  return { found, payload: { msgId: found.msgId, type: found.type, data: found.rawData, sentAtMs } };
}

/** Lock facts for its queue (awake: an uplink within the last `wakeWindowMs` ms); 404 when not in the tenant. */
async function queueHead(tx: Tx, lockId: number, wakeWindowMs: number) {
  const [lock] = await tx.select({
    id: locks.id, imei: locks.imei, alwaysOnline: locks.alwaysOnline, lastUplinkAt: locks.lastUplinkAt,
    awake: sql<boolean>`${locks.alwaysOnline} or coalesce(${locks.lastUplinkAt} > now() - make_interval(secs => ${wakeWindowMs / 1000}), false)`,
    nextWakeAt: nextWakeSql,
  }).from(locks).where(eq(locks.id, lockId));
  if (!lock) throw new ApiError('NOT_FOUND');
  const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);
  return { lockId: lock.id, imei: lock.imei, alwaysOnline: lock.alwaysOnline, awake: lock.awake, lastUplinkAt: iso(lock.lastUplinkAt), nextWakeAt: iso(lock.nextWakeAt) };
}

export async function commandRoutes(app: FastifyInstance): Promise<void> {
  registerEndpoint(app, commandEndpoints.list, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listCommands(tx, filter, current, size));
  });

  registerEndpoint(app, commandEndpoints.simpleList, ({ query, inTenant }) =>
    inTenant(async (tx) => ({ ...(await queueHead(tx, query.lockId, app.config.WAKE_WINDOW_MS)), commands: await lockCommands(tx, query.lockId) })));

  registerEndpoint(app, commandEndpoints.cancel, ({ body, inTenant }) => inTenant((tx) => cancelCommand(tx, body.id)));

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
