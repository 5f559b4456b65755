/**
 * WeChat Pay notification routes (issue #15; WXPAY_NOTIFY_PATHS): public, raw JSON bodies. A
 * notification is verified and decrypted (notification.ts), checked against the merchant and the
 * order and applied in one transaction (apply.ts); only after the commit does it get 204. Anything
 * else answers `{"code":"FAIL","message":...}` with 4xx/5xx and changes nothing; the log line names
 * the reason and the notification id, never headers, bodies or keys.
 */
import { wxNotifyEndpoints } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyRefund, applyTransaction } from './apply.js';
import { refundResource, transactionResource } from './client.js';
import { NotificationRefused, openNotification } from './notification.js';

type Kind = keyof typeof wxNotifyEndpoints;

/** Registers both notification routes in their own scope (raw body parser). */
export async function notifyRoutes(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  const handle = (kind: Kind) => async (request: FastifyRequest, reply: FastifyReply) => {
    const fail = (status: number, message: string) => reply.code(status).type('application/json').send(JSON.stringify({ code: 'FAIL', message }));
    const payments = app.payments;
    if (!payments) return fail(503, 'payments not configured');
    let id: string | undefined;
    try {
      const opened = openNotification(request.headers, typeof request.body === 'string' ? request.body : '', payments.settings);
      id = opened.id;
      const expected = kind === 'payment' ? 'TRANSACTION.' : 'REFUND.';
      if (!opened.eventType.startsWith(expected)) throw new NotificationRefused(400, 'unexpected event_type');
      const outcome = await app.database.transaction((tx) => {
        if (kind === 'payment') {
          const resource = transactionResource.safeParse(opened.resource);
          if (!resource.success) throw new NotificationRefused(400, 'malformed transaction resource');
          return applyTransaction(tx, payments.settings, resource.data);
        }
        const resource = refundResource.safeParse(opened.resource);
        if (!resource.success) throw new NotificationRefused(400, 'malformed refund resource');
        return applyRefund(tx, payments.settings, resource.data);
      });
      request.log.info({ notification: id, kind, outcome }, 'WeChat Pay notification applied');
      return reply.code(204).send();
    } catch (error) {
      if (error instanceof NotificationRefused) {
        request.log.warn({ notification: id, kind, reason: error.message }, 'WeChat Pay notification refused');
        return fail(error.status, error.message);
      }
      request.log.error({ notification: id, kind, reason: error instanceof Error ? error.message : 'unknown' }, 'WeChat Pay notification failed');
      return fail(500, 'internal error');
    }
  };
  for (const kind of Object.keys(wxNotifyEndpoints) as Kind[]) {
    const endpoint = wxNotifyEndpoints[kind];
    app.route({ method: 'POST', url: endpoint.path, config: { access: endpoint.access, endpoint, response: { kind: 'provider' } }, handler: handle(kind) });
  }
}
