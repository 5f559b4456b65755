/**
 * 时间表管理 routes (contract api/accessSchedule.ts): schedule operations, the list,
 * retry / discard and the bulk template, in the tenant's transaction; a queued command wakes the
 * dispatchers through its `command.queued` event once committed. The sync hook (sync.ts) is wired in wiring.ts.
 */
import { accessScheduleEndpoints as E } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import type { Actor } from '../credential/ops.js';
import { listSchedules } from './repo.js';
import { discardSchedule, operateSchedule, retrySchedule } from './schedules.js';
import { applyTemplate } from './template.js';

export async function accessScheduleRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  const actorOf = (tenantId: number, principal: { username: string }): Actor => ({ tenantId, username: principal.username, box });

  registerEndpoint(app, E.operate, async ({ body, inTenant, tenantId, principal }) => (await inTenant((tx) => operateSchedule(tx, actorOf(tenantId, principal), body))).record);
  registerEndpoint(app, E.list, ({ query, inTenant }) => inTenant((tx) => listSchedules(tx, query)));
  registerEndpoint(app, E.retry, async ({ body, inTenant, tenantId, principal }) => (await inTenant((tx) => retrySchedule(tx, actorOf(tenantId, principal), body.id))).record);
  registerEndpoint(app, E.discard, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => discardSchedule(tx, actorOf(tenantId, principal), body.id)));
  registerEndpoint(app, E.applyTemplate, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => applyTemplate(tx, actorOf(tenantId, principal), body)));
}
