/**
 * The sandbox's pay page on the platform's own origin (DEMO only, contract WXPAY_SANDBOX_PAY_PATH `?id=`):
 * GET shows the order and a confirm button, POST confirms the payment (the sandbox then
 * sends its signed notification as WeChat Pay would). Public, as a payer's phone has no session; an
 * unknown id is a 404. Not registered when payments are real or absent.
 */
import { WXPAY_SANDBOX_PAY_PATH } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Registers GET and POST WXPAY_SANDBOX_PAY_PATH (`?id=<prepay id>`) when this process runs the sandbox. */
export async function sandboxPageRoutes(app: FastifyInstance): Promise<void> {
  const sandbox = app.payments?.sandbox;
  if (!sandbox) return;
  // A form post carries an empty urlencoded body.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));
  const show = (confirm: boolean) => async (request: FastifyRequest<{ Querystring: { id?: string } }>, reply: FastifyReply) => {
    const html = sandbox.payPage(String(request.query.id ?? ''), confirm);
    if (html === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('订单不存在 · No such order');
    return reply.type('text/html; charset=utf-8').send(html);
  };
  const config = { access: 'public' as const };
  app.get<{ Querystring: { id?: string } }>(WXPAY_SANDBOX_PAY_PATH, { config }, show(false));
  app.post<{ Querystring: { id?: string } }>(WXPAY_SANDBOX_PAY_PATH, { config }, show(true));
}
