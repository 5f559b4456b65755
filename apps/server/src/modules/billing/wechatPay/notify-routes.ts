/**
 * WeChat Pay notification routes (WXPAY_NOTIFY_PATHS): public, raw JSON bodies. A
 * notification is verified and decrypted (notification.ts: signature, timestamp within 5 minutes either
 * way), its event type and every field of its resource checked and the merchant matched (resources.ts),
 * then matched with the order and applied in one transaction (billing/apply.ts); only after the commit does it get 204. Anything
 * else answers `{"code":"FAIL","message":...}` with 4xx/5xx and changes nothing; the log line names
 * the reason and the notification id, never headers, bodies or keys.
 */
import { wechatPayNotifyEndpoints } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../../../db/client.js';
import { applyPayment, applyRefund, type Outcome } from '../apply.js';
import { PaymentReportRefused } from '../provider.js';
import { openNotification } from './notification.js';
import { NOTIFICATION_EVENTS, paidTransactionResource, paymentFrom, refundFrom, refundNotificationResource } from './resources.js';
import type { MerchantSettings } from './settings.js';

type Apply = (tx: Executor, settings: MerchantSettings, by: string) => Promise<Outcome>;
/** The first failing field of a resource, for the log and the answer (never its value). */
const firstIssue = (error: { issues: { path: PropertyKey[] }[] }) => error.issues[0]?.path.map(String).join('.') || 'resource';

function paymentOf(resource: unknown): Apply {
  const parsed = paidTransactionResource.safeParse(resource);
  if (!parsed.success) throw new PaymentReportRefused(400, `transaction resource: ${firstIssue(parsed.error)} missing or malformed`);
  return (tx, settings, by) => applyPayment(tx, by, paymentFrom(parsed.data, settings));
}

function refundOf(resource: unknown, eventType: string): Apply {
  const parsed = refundNotificationResource.safeParse(resource);
  if (!parsed.success) throw new PaymentReportRefused(400, `refund resource: ${firstIssue(parsed.error)} missing or malformed`);
  if (eventType !== `REFUND.${parsed.data.refund_status}`) throw new PaymentReportRefused(400, 'refund_status does not match event_type');
  return (tx, settings, by) => applyRefund(tx, by, refundFrom(parsed.data, settings));
}

type Kind = keyof typeof wechatPayNotifyEndpoints;

/** Registers both notification routes in their own scope (raw body parser). */
export async function notifyRoutes(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  const handle = (kind: Kind) => async (request: FastifyRequest, reply: FastifyReply) => {
    const fail = (status: number, message: string) => reply.code(status).type('application/json').send(JSON.stringify({ code: 'FAIL', message }));
    const payments = app.payments;
    if (!payments) return fail(503, 'payments not configured');
    let id: string | undefined;
    try {
      const opened = openNotification(request.headers, typeof request.body === 'string' ? request.body : '', payments.merchant);
      id = opened.id;
      if (!(NOTIFICATION_EVENTS[kind] as readonly string[]).includes(opened.eventType)) throw new PaymentReportRefused(400, 'unexpected event_type');
      // Every field the change relies on is checked before the transaction opens (resources.ts), then against the order (apply.ts).
      const apply = kind === 'payment' ? paymentOf(opened.resource) : refundOf(opened.resource, opened.eventType);
      const outcome = await app.database.transaction((tx) => apply(tx, payments.merchant, payments.provider.auditName));
      request.log.info({ notification: id, kind, outcome }, 'WeChat Pay notification applied');
      return reply.code(204).send();
    } catch (error) {
      if (error instanceof PaymentReportRefused) {
        request.log.warn({ notification: id, kind, reason: error.message }, 'WeChat Pay notification refused');
        return fail(error.status, error.message);
      }
      request.log.error({ notification: id, kind, reason: error instanceof Error ? error.message : 'unknown' }, 'WeChat Pay notification failed');
      return fail(500, 'internal error');
    }
  };
  for (const kind of Object.keys(wechatPayNotifyEndpoints) as Kind[]) {
    const endpoint = wechatPayNotifyEndpoints[kind];
    app.route({ method: 'POST', url: endpoint.path, config: { access: endpoint.access, endpoint, response: { kind: 'provider' } }, handler: handle(kind) });
  }
}
