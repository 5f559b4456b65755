/**
 * 门锁配置 routes: locks with their reported configuration, config push (one lock or a device target; checked
 * against each lock's device type, limits.ts) and clock sync. A push or a sync is a queued command
 * (modules/command/outbox.ts); its `command.queued` event wakes the dispatchers once committed, so an
 * awake or always-online lock gets it at once.
 */
import { commandEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { enqueueCommand } from '../command/outbox.js';
import { pushConfigToTarget } from './batch.js';
import { checkLockConfig } from './limits.js';
import { listLockConfigs } from './queries.js';

export async function lockConfigRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);

  registerEndpoint(app, commandEndpoints.lockConfigList, ({ query, inTenant }) =>
    inTenant((tx) => listLockConfigs(tx, query.keyword, query.current, query.size)));

  registerEndpoint(app, commandEndpoints.lockConfig, async ({ body, inTenant, tenantId, principal }) => {
    const command = await inTenant(async (tx) => {
      await checkLockConfig(tx, body.lockId, body.config);
      return enqueueCommand(tx, { tenantId, lockId: body.lockId, type: 'configPush', data: { config: body.config }, createdBy: principal.username }, box);
    });
    return command;
  });

  registerEndpoint(app, commandEndpoints.lockConfigBatch, async ({ body, inTenant, tenantId, principal }) => {
    return inTenant((tx) => pushConfigToTarget(tx, { tenantId, username: principal.username }, body.target, body.config, box, app.config.WAKE_WINDOW_MS));
  });

  registerEndpoint(app, commandEndpoints.clockSync, async ({ body, inTenant, tenantId, principal }) => {
    const command = await inTenant((tx) => enqueueCommand(tx, {
      tenantId, lockId: body.lockId, type: 'clockSync', data: { time: Date.now() }, createdBy: principal.username,
    }, box));
    return command;
  });
}

