/**
 * Stay routes (contract api/stay.ts): every change in the tenant's transaction with its
 * system-log row (registerEndpoint); add honours Idempotency-Key (a PMS retry never books twice).
 */
import { stayEndpoints as E, type StayState } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import type { Actor } from '../credential/ops.js';
import { listCommonDoors } from '../lockDevice/common-door.js';
import { timeZoneOf } from '../tenant/settings.js';
import { markCommonDoor } from './common-doors.js';
import { stayImportRoutes } from './import/routes.js';
import { addStay, changeRoom, editStay, issueCard, moveStay, suspendStay } from './lifecycle.js';
import { listStays, notReadyStays, stayDetail } from './views.js';

export async function stayRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  const actorOf = (tenantId: number, principal: { username: string }): Actor => ({ tenantId, username: principal.username, box });

  registerEndpoint(app, E.add, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => addStay(tx, actorOf(tenantId, principal), body)));
  registerEndpoint(app, E.edit, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => editStay(tx, actorOf(tenantId, principal), body)));
  const moves: [typeof E.checkIn, StayState][] = [[E.checkIn, 'CHECKED_IN'], [E.checkOut, 'CHECKED_OUT'], [E.cancel, 'CANCELLED'], [E.noShow, 'NO_SHOW']];
  for (const [endpoint, to] of moves) {
    registerEndpoint(app, endpoint, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => moveStay(tx, actorOf(tenantId, principal), body.id, to)));
  }
  registerEndpoint(app, E.suspend, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => suspendStay(tx, actorOf(tenantId, principal), body.id, true)));
  registerEndpoint(app, E.resume, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => suspendStay(tx, actorOf(tenantId, principal), body.id, false)));
  registerEndpoint(app, E.changeRoom, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => changeRoom(tx, actorOf(tenantId, principal), body.id, body.room)));
  registerEndpoint(app, E.card, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => issueCard(tx, actorOf(tenantId, principal), body)));
  registerEndpoint(app, E.list, ({ query, inTenant }) => inTenant((tx) => listStays(tx, query)));
  registerEndpoint(app, E.detail, ({ query, inTenant }) => inTenant((tx) => stayDetail(tx, query.id)));
  // The booking import in a scope of its own: multipart parsing is registered for its routes only.
  await app.register((scope) => stayImportRoutes(scope, actorOf));
  registerEndpoint(app, E.commonDoors, ({ query, inTenant }) => inTenant((tx) => listCommonDoors(tx, query.building)));
  registerEndpoint(app, E.setCommonDoor, ({ body, inTenant, tenantId }) => inTenant((tx) => markCommonDoor(tx, tenantId, body.lockId, body.commonDoor)));
  registerEndpoint(app, E.notReady, ({ inTenant, tenantId }) => inTenant(async (tx) => notReadyStays(tx, await timeZoneOf(tx, tenantId))));
}
