/** 订阅管理 / open platform routes (spec §7 /nbdev/*); the demo receiver's with DEMO=on (demo/receiver.ts). */
import { LOG_EXPORT_MAX, subscriptionEndpoints as api } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { lazySecretBox } from '../../crypto/secret-box.js';
import { fieldError } from '../../http/api-error.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { sendExport } from '../../http/export.js';
import { DELIVERY_EXPORT_COLUMNS, type DeliveryFilter, deliveryRows, listDeliveries, queueTestEvent, replayDeliveries } from './deliveries.js';
import { egressPolicyOf, urlRefusal } from './egress.js';
import { rotateKey, signingSecrets } from './keys.js';
import { customerCodeId, getConfig, listCustomerCodes, resumeEndpoint, saveCustomerCode, writeConfig } from './customerCodes.js';
import { verifyEndpoint } from './verify.js';
import { timeZoneOf } from '../tenant/settings.js';

/** Registers the open-platform routes. */
export async function subscriptionRoutes(app: FastifyInstance): Promise<void> {
  const box = lazySecretBox(app.config);
  const policy = egressPolicyOf(app.config);
  registerEndpoint(app, api.customerCodes, ({ query, inTenant }) => inTenant((tx) => listCustomerCodes(tx, query.keyword), { read: true }));
  registerEndpoint(app, api.saveCustomerCode, ({ body, inTenant, tenantId }) => inTenant((tx) => saveCustomerCode(tx, tenantId, body)));
  registerEndpoint(app, api.generateKey, ({ body, inTenant, tenantId }) =>
    inTenant(async (tx) => rotateKey(tx, tenantId, await customerCodeId(tx, body.customerCode), body.graceMinutes, box)));
  registerEndpoint(app, api.getConfig, ({ query, inTenant }) => inTenant((tx) => getConfig(tx, query.customerCode), { read: true }));
  registerEndpoint(app, api.saveConfig, async ({ body, inTenant, tenantId }) => {
    const refusal = urlRefusal(body.url, policy);
    if (refusal) throw fieldError('body.url', `推送地址不可用：${refusal}`, `The endpoint URL is refused: ${refusal}`);
    const { id, secrets } = await inTenant(async (tx) => {
      const codeId = await customerCodeId(tx, body.customerCode);
      return { id: codeId, secrets: (await signingSecrets(tx, [codeId], box)).get(codeId) ?? [] };
    }, { read: true });
    if (secrets.length === 0) throw fieldError('body.customerCode', '请先生成签名密钥', 'Generate a signing key first');
    const verification = await verifyEndpoint(body.url, body.customerCode, tenantId, secrets, policy);
    if (!verification.verified) {
      throw fieldError('body.url', `推送地址验证失败：${verification.error}`, `The endpoint did not pass verification: ${verification.error}`);
    }
    await inTenant((tx) => writeConfig(tx, tenantId, id, body));
    return { verified: true, status: verification.status, latencyMs: verification.latencyMs };
  });
  registerEndpoint(app, api.deliveries, ({ query, inTenant }) => {
    const { current, size, ...filter } = query;
    return inTenant((tx) => listDeliveries(tx, filter as DeliveryFilter, current, size), { read: true });
  });
  registerEndpoint(app, api.exportDeliveries, async ({ query, inTenant, request, reply }) => {
    const { format, timeZone, ...filter } = query;
    const rows = await inTenant((tx) => deliveryRows(tx, filter as DeliveryFilter, LOG_EXPORT_MAX + 1), { read: true });
    return sendExport({ request, reply, format, timeZone: timeZone ?? await timeZoneOf(app.database.system, request.tenantId), name: 'push-deliveries', columns: DELIVERY_EXPORT_COLUMNS, rows });
  }, { raw: true });
  registerEndpoint(app, api.replay, ({ body, inTenant }) => inTenant(async (tx) => ({ replayed: await replayDeliveries(tx, body.ids) })));
  registerEndpoint(app, api.resume, ({ body, inTenant }) =>
    inTenant(async (tx) => ({ resumed: await resumeEndpoint(tx, await customerCodeId(tx, body.customerCode)) })));
  registerEndpoint(app, api.sendTest, ({ body, inTenant, tenantId }) =>
    inTenant(async (tx) => ({ eventId: await queueTestEvent(tx, tenantId, await customerCodeId(tx, body.customerCode)) })));
  // Demo-only: not registered at all with DEMO=off.
  if (app.config.DEMO) (await import('../../demo/receiver.js')).registerDemoReceiver(app, box);
}
