/**
 * Lock routes: the registry (门锁信息: list, export, register, edit, enable/disable, decommission,
 * release IMEI, reset secret), the lock-room list (every
 * page that picks a lock; 产品's rooms), the location tree (产品) and the fleet overview (门锁概况); the
 * fleet analysis is modules/analysis. A reset secret, a disable or a decommission drops the lock's live
 * MQTT session once the change has committed (its event: registry.ts; the gateway subscribes).
 */
import { LOG_EXPORT_MAX, lockEndpoints, type LockRecord } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { type ExportPages, sendExport } from '../../http/export.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { LOCK_EXPORT_COLUMNS } from './exportColumns.js';
import { decommissionLock, registerLock, releaseImei, resetSecret, setLockEnabled, updateLock } from './registry.js';
import { listLockRooms, locationTree } from './fleet.js';
import { lockImportRoutes } from './import/routes.js';
import { listLocks, selectLocks } from './repo.js';
import { LockTotals } from './list-totals.js';
import { surveyLocks } from './survey.js';
import { timeZoneOf } from '../tenant/settings.js';

export async function lockDeviceRoutes(app: FastifyInstance): Promise<void> {
  await app.register(lockImportRoutes);
  const totals = new LockTotals(app.database.events);
  app.addHook('onClose', async () => totals.close());
  registerEndpoint(app, lockEndpoints.list, ({ query: { current, size, ...filter }, inTenant, tenantId }) => {
    const remembered = totals.slot(tenantId, filter); // taken before the query: a change while it runs is not remembered
    return inTenant((tx) => listLocks(tx, filter, current, size, app.config.WAKE_WINDOW_MS, remembered));
  });
  registerEndpoint(app, lockEndpoints.export, async ({ query: { format, timeZone, ...filter }, inTenant, request, reply }) => {
    // Up to LOG_EXPORT_MAX locks, read page by page in one snapshot while a worker writes the file (http/export.ts).
    const rows: ExportPages<LockRecord> = (use) =>
      inTenant((tx) => use((offset, limit) => selectLocks(tx, filter, limit, app.config.WAKE_WINDOW_MS, offset)), { snapshot: true });
    return sendExport({ request, reply, format, timeZone: timeZone ?? await timeZoneOf(app.database.system, request.tenantId), name: 'locks', columns: LOCK_EXPORT_COLUMNS, rows, max: LOG_EXPORT_MAX });
  }, { raw: true });
  const wake = app.config.WAKE_WINDOW_MS;
  registerEndpoint(app, lockEndpoints.lockRoomList, ({ query, inTenant }) => inTenant((tx) => listLockRooms(tx, query, wake)));
  registerEndpoint(app, lockEndpoints.locationTree, ({ query, inTenant }) => inTenant((tx) => locationTree(tx, query.building, wake)));
  registerEndpoint(app, lockEndpoints.survey, ({ inTenant }) => inTenant((tx) => surveyLocks(tx, wake), { read: true }));

  registerEndpoint(app, lockEndpoints.add, ({ body, tenantId, inTenant }) => inTenant((tx) => registerLock(tx, tenantId, body)));
  registerEndpoint(app, lockEndpoints.update, ({ body: { id, ...input }, inTenant }) => inTenant((tx) => updateLock(tx, id, input)));
  registerEndpoint(app, lockEndpoints.enable, async ({ body, inTenant }) => {
    await inTenant((tx) => setLockEnabled(tx, body.id, body.enabled));
    return null;
  });
  registerEndpoint(app, lockEndpoints.decommission, async ({ body, inTenant }) => {
    await inTenant((tx) => decommissionLock(tx, body.id));
    return null;
  });
  registerEndpoint(app, lockEndpoints.releaseImei, ({ body, inTenant }) => inTenant((tx) => releaseImei(tx, body.id)));
  registerEndpoint(app, lockEndpoints.resetSecret, ({ body, inTenant }) => inTenant((tx) => resetSecret(tx, body.id)));
}
