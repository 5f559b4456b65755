/**
 * Credential management routes (contract api/credential.ts): operations on lock users and
 * credentials, lists, operation logs, retry/discard, capacity, reveal, offboarding, who-can-open and
 * the simulator's open attempt. Everything runs in the tenant's transaction (another tenant's id is
 * 404); a queued command wakes the dispatchers through its `command.queued` event once committed. The credential
 * sync hook (sync.ts) is wired to the command lifecycle in app.ts.
 */
import { type CredentialKind, credentialEndpoints as E, offboardEndpoints } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { enqueueCommand } from '../command/outbox.js';
import { commandStates, offboard, offboardPreview, reportLost } from './bulk.js';
import { addCredential, deleteCredential, discardCredential, retryCredential } from './credentials.js';
import type { Actor } from './ops.js';
import { findLock } from './repo.js';
import { discardUser, retryUser, userOperation } from './users.js';
import { capacity, listCredentials, listOperations, listUsers, revealPassword } from './views.js';

const PASSWORDS: readonly CredentialKind[] = ['password', 'tempPassword'];

export async function credentialRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  const actorOf = (tenantId: number, principal: { username: string }): Actor => ({ tenantId, username: principal.username, box });

  registerEndpoint(app, E.userOperation, async ({ body, inTenant, tenantId, principal }) => {
    const done = await inTenant((tx) => userOperation(tx, actorOf(tenantId, principal), body));
    return done.record;
  });
  registerEndpoint(app, E.foreverPassword, async ({ body, inTenant, tenantId, principal }) => {
    const actor = actorOf(tenantId, principal);
    const done = await inTenant((tx) => (body.action === 'add' ? addCredential(tx, actor, { ...body, kind: 'password' }) : deleteCredential(tx, actor, body.id, ['password'])));
    return done.record;
  });
  registerEndpoint(app, E.tempPassword, async ({ body, inTenant, tenantId, principal }) => {
    const actor = actorOf(tenantId, principal);
    const done = await inTenant((tx) => (body.action === 'add' ? addCredential(tx, actor, { ...body, kind: 'tempPassword' }) : deleteCredential(tx, actor, body.id, ['tempPassword'])));
    return done.record;
  });
  registerEndpoint(app, E.cardOperate, async ({ body, inTenant, tenantId, principal }) => {
    const actor = actorOf(tenantId, principal);
    if (body.action === 'reportLost') {
      const result = await inTenant((tx) => reportLost(tx, actor, body.cardNumber, body.reversed));
      return result;
    }
    const done = await inTenant((tx) => (body.action === 'add' ? addCredential(tx, actor, { ...body, kind: 'card' }) : deleteCredential(tx, actor, body.id, ['card'])));
    return { records: [done.record], locks: [] };
  });
  registerEndpoint(app, E.addFingerPrint, async ({ body, inTenant, tenantId, principal }) => {
    const actor = actorOf(tenantId, principal);
    const done = await inTenant((tx) => (body.action === 'add' ? addCredential(tx, actor, { ...body, kind: 'fingerprint' }) : deleteCredential(tx, actor, body.id, ['fingerprint'])));
    return done.record;
  });
  for (const [endpoint, type] of [[E.registerDevice, 'registerDevice'], [E.deleteDevice, 'deleteDevice']] as const) {
    registerEndpoint(app, endpoint, async ({ body, inTenant, tenantId, principal }) => {
      const data = type === 'registerDevice' ? { vendor: 'ZIGUANG' } : {};
      const command = await inTenant((tx) => enqueueCommand(tx, { tenantId, lockId: body.lockId, type, data, createdBy: principal.username }, box));
      return command;
    });
  }

  registerEndpoint(app, E.userList, ({ query, inTenant }) => inTenant((tx) => listUsers(tx, query)));
  registerEndpoint(app, E.passwordList, ({ query, inTenant }) => inTenant((tx) => listCredentials(tx, query, PASSWORDS)));
  registerEndpoint(app, E.cardList, ({ query, inTenant }) => inTenant((tx) => listCredentials(tx, query, ['card'])));
  registerEndpoint(app, E.fpList, ({ query, inTenant }) => inTenant((tx) => listCredentials(tx, query, ['fingerprint'])));

  registerEndpoint(app, E.user.log, ({ query, inTenant }) => inTenant((tx) => listOperations(tx, 'user', query)));
  registerEndpoint(app, E.user.retry, async ({ body, inTenant, tenantId, principal }) => {
    const done = await inTenant((tx) => retryUser(tx, actorOf(tenantId, principal), body.id));
    return done.record;
  });
  registerEndpoint(app, E.user.discard, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => discardUser(tx, actorOf(tenantId, principal), body.id)));
  const subjects = [[E.password, 'password', PASSWORDS], [E.card, 'card', ['card']], [E.fp, 'fingerprint', ['fingerprint']]] as const;
  for (const [routes, subject, kinds] of subjects) {
    registerEndpoint(app, routes.log, ({ query, inTenant }) => inTenant((tx) => listOperations(tx, subject, query)));
    registerEndpoint(app, routes.retry, async ({ body, inTenant, tenantId, principal }) => {
      const done = await inTenant((tx) => retryCredential(tx, actorOf(tenantId, principal), body.id, kinds));
      return done.record;
    });
    registerEndpoint(app, routes.discard, ({ body, inTenant, tenantId, principal }) => inTenant((tx) => discardCredential(tx, actorOf(tenantId, principal), body.id, kinds)));
  }

  registerEndpoint(app, E.reveal, ({ body, inTenant, tenantId, principal, request }) =>
    inTenant((tx) => revealPassword(tx, { tenantId, accountId: principal.accountId, username: principal.username, clientIp: request.ip }, body.id, box.open)), { audit: false });
  registerEndpoint(app, E.offboard, async ({ body, inTenant, tenantId, principal }) => {
    const result = await inTenant((tx) => offboard(tx, actorOf(tenantId, principal), body));
    return result;
  });
  registerEndpoint(app, offboardEndpoints.preview, ({ query, inTenant }) => inTenant((tx) => offboardPreview(tx, query)));
  registerEndpoint(app, E.commandStates, ({ body, inTenant }) => inTenant((tx) => commandStates(tx, body.commandIds)));
  registerEndpoint(app, E.capacity, ({ query, inTenant }) => inTenant((tx) => capacity(tx, query)));
  // Demo-only (simulated keypad): not registered at all with DEMO=off.
  if (app.config.DEMO) {
    const { attemptOnSimulator } = await import('../../demo/keypad.js');
    registerEndpoint(app, E.attemptOpen, async ({ body, inTenant }) => {
      const lock = await inTenant((tx) => findLock(tx, body), { read: true });
      return attemptOnSimulator(app, lock.imei, body);
    });
  }
}
