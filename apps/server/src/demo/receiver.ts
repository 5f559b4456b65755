/**
 * DEMO FACILITY (DEMO=on only): a customer's receiver inside the platform, at
 * `POST /demo/receiver` (any customer code, named by its X-Iot-Customer-Code header), so a newcomer sees pushes flow. It verifies each push's
 * signature with the customer code's secrets as a customer would (signing.ts verifyPush), answers
 * the verification challenge, and can be stopped (then it answers 503, and retries pile up) and
 * started again in 订阅管理 (GET/POST /nbdev/demoReceiver), to watch the backlog drain.
 */
import { demoReceiverEndpoints, PUSH_HEADERS } from '@iot/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { SecretBox } from '../crypto/secret-box.js';
import { rowsOf } from '../db/rows.js';
import { registerEndpoint } from '../http/endpoint.js';
import { signingSecrets } from '../modules/subscription/keys.js';
import { verifyPush } from '../modules/subscription/signing.js';

/** The receiver's path: its URL is `http://127.0.0.1:{PORT}/demo/receiver` for every customer code. */
export const DEMO_RECEIVER_PATH = '/demo/receiver';
const state = { running: true, received: 0 };

/** Registers the receiver and its switch. */
export function registerDemoReceiver(app: FastifyInstance, box: SecretBox): void {
  const view = () => ({ ...state, url: `http://127.0.0.1:${app.config.PORT}${DEMO_RECEIVER_PATH}` });
  registerEndpoint(app, demoReceiverEndpoints.state, async () => view());
  registerEndpoint(app, demoReceiverEndpoints.set, async ({ body }) => {
    state.running = body.running;
    return view();
  });
  app.register(async (scope) => {
    // Its own parser: the signature covers the exact bytes received.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    // Not logged per request (warn level): the demo's pushes would bury `npm start`'s sign-in lines, and
    // each delivery is recorded in 订阅管理's delivery log anyway.
    scope.post(DEMO_RECEIVER_PATH, { config: { access: 'public' }, logLevel: 'warn' }, async (request, reply) => {
      if (!state.running) return reply.code(503).send({ error: 'demo receiver stopped' });
      const body = String(request.body ?? '');
      const headers = request.headers as Record<string, string | undefined>;
      const code = headers[PUSH_HEADERS.customerCode] ?? '';
      const [row] = rowsOf<{ id: number | string }>(await app.database.system.execute(sql`select id from customer_codes where code = ${code}`));
      const secrets = row ? (await signingSecrets(app.database.system, [Number(row.id)], box)).get(Number(row.id)) ?? [] : [];
      if (!secrets.some((secret) => verifyPush(headers, body, secret))) return reply.code(401).send({ error: 'bad signature' });
      state.received++;
      const parsed = JSON.parse(body) as { eventType: string; data?: { challenge?: string } };
      app.log.debug({ eventId: headers[PUSH_HEADERS.eventId], eventType: parsed.eventType }, 'demo receiver: push verified');
      return parsed.eventType === 'verification' ? { challenge: parsed.data?.challenge } : { ok: true };
    });
  });
}
