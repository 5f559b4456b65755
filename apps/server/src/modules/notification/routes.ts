/**
 * Notification routes (contract api/notification.ts): channels of the data centre and their
 * test message, rules, the delivery log, and each account's inbox. The test is sent between two tenant transactions, never inside one (a slow receiver
 * holds no connection); the first writes the system-log row.
 */
import { notificationEndpoints as api } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { egressPolicyOf } from '../subscription/egress.js';
import { createChannel, deleteChannel, listChannels, openChannel, recordTest, updateChannel } from './channels.js';
import { listNotificationDeliveries } from './deliveries.js';
import { listInbox, markInboxRead } from './inbox.js';
import { testMessage } from './messages.js';
import { PROVIDERS } from './providers/index.js';
import { listRecipientChoices } from './recipients.js';
import { deleteRule, listRules, saveRule } from './rules.js';

/** Registers the notification routes. */
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  const policy = egressPolicyOf(app.config);
  registerEndpoint(app, api.channel.list, ({ inTenant }) => inTenant((tx) => listChannels(tx), { read: true }));
  registerEndpoint(app, api.channel.create, ({ body, inTenant, tenantId }) => inTenant((tx) => createChannel(tx, tenantId, body, box, policy)));
  registerEndpoint(app, api.channel.update, ({ body, inTenant }) => inTenant((tx) => updateChannel(tx, body, box, policy)));
  registerEndpoint(app, api.channel.delete, ({ body, inTenant }) => inTenant(async (tx) => ({ deleted: await deleteChannel(tx, body.id) })));
  registerEndpoint(app, api.channel.test, async ({ body, inTenant }) => {
    const channel = await inTenant(async (tx) => {
      return openChannel(tx, body.id, box);
    });
    const result = await PROVIDERS[channel.kind](channel, testMessage(channel.language, channel.name), policy);
    await inTenant((tx) => recordTest(tx, body.id, result.sent, result.error));
    return result;
  });
  registerEndpoint(app, api.rule.recipients, ({ inTenant, tenantId }) => inTenant((tx) => listRecipientChoices(tx, tenantId), { read: true }));
  registerEndpoint(app, api.rule.list, ({ inTenant }) => inTenant((tx) => listRules(tx), { read: true }));
  registerEndpoint(app, api.rule.save, ({ body, inTenant, tenantId }) => inTenant((tx) => saveRule(tx, tenantId, body)));
  registerEndpoint(app, api.rule.delete, ({ body, inTenant }) => inTenant(async (tx) => ({ deleted: await deleteRule(tx, body.id) })));
  registerEndpoint(app, api.delivery.list, ({ query, inTenant }) => inTenant((tx) => listNotificationDeliveries(tx, query), { read: true }));
  // The caller's own inbox: every query is scoped to the signed-in account (and, by row-level security, the data centre).
  registerEndpoint(app, api.inbox.list, ({ query, inTenant, principal }) => inTenant((tx) => listInbox(tx, principal.accountId, query), { read: true }));
  registerEndpoint(app, api.inbox.read, ({ body, inTenant, principal, tenantId }) => inTenant((tx) => markInboxRead(tx, tenantId, principal.accountId, body)));
}
