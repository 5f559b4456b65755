/**
 * Credential drift routes (contract api/lockDrift.ts): a lock's inventory against the
 * platform, asking for a fresh one, and resolving unmanaged and missing slots; plus the demo keypad
 * (a code added at a simulated lock's keypad, registered only with DEMO=on). Tenant transaction; a
 * queued command wakes the dispatchers through its `command.queued` event once committed.
 */
import { lockDriftEndpoints as E } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { enqueueCommand } from '../command/outbox.js';
import { adopt, deleteUnmanaged, driftOf, markLost, requeue } from './drift.js';
import type { Actor } from './ops.js';
import { findLock } from './repo.js';

export async function credentialDriftRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  const actorOf = (tenantId: number, principal: { username: string }): Actor => ({ tenantId, username: principal.username, box });

  registerEndpoint(app, E.drift, ({ query, inTenant }) => inTenant((tx) => driftOf(tx, query)));
  registerEndpoint(app, E.queryInventory, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => enqueueCommand(tx, { tenantId, lockId: body.lockId, type: 'queryInventory', data: {}, createdBy: principal.username }, box)));
  registerEndpoint(app, E.adopt, async ({ body, inTenant, tenantId, principal }) => (await inTenant((tx) => adopt(tx, actorOf(tenantId, principal), body.id, body.lockUserId))).record);
  registerEndpoint(app, E.deleteUnmanaged, async ({ body, inTenant, tenantId, principal }) => (await inTenant((tx) => deleteUnmanaged(tx, actorOf(tenantId, principal), body.id))).result);
  registerEndpoint(app, E.requeue, async ({ body, inTenant, tenantId, principal }) => (await inTenant((tx) => requeue(tx, actorOf(tenantId, principal), body.subject, body.id))).result);
  registerEndpoint(app, E.markLost, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => markLost(tx, actorOf(tenantId, principal), body.subject, body.id)));
  // Demo-only (simulated keypad): not registered at all with DEMO=off.
  if (app.config.DEMO) {
    const { keypadAddOnSimulator } = await import('../../demo/keypad.js');
    registerEndpoint(app, E.keypadAdd, async ({ body, inTenant }) => {
      const lock = await inTenant((tx) => findLock(tx, body), { read: true });
      return keypadAddOnSimulator(app, lock.imei, body.password);
    });
  }
}
