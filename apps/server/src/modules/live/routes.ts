/**
 * The live stream's routes (contract api/live.ts, docs/events.md "The live stream"):
 * - `POST /iot/v1/events/ticket`: a single-use ticket for the caller's sign-in and data centre;
 * - `GET /iot/v1/events`: `text/event-stream` (@fastify/sse writes to the socket itself, so
 *   @fastify/compress never holds a message back), opened with the token headers or `?ticket=`.
 * The hub (hub.ts) takes every domain event of the bus from `onReady` on; every stream is closed
 * in `preClose` (`closed: shutdown`), so a graceful shutdown never waits for an open stream.
 */
import fastifySse from '@fastify/sse';
import { LIVE_HEARTBEAT_MS, LIVE_TICKET_TTL_S, liveEndpoints, liveStreamQuery } from '@iot/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/api-error.js';
import type { Principal } from '../../http/context.js';
import { registerEndpoint } from '../../http/endpoint.js';
import { parseOrThrow } from '../../http/validation.js';
import { LiveHub } from './hub.js';
import { LiveStream } from './stream.js';
import { issueTicket, redeemTicket, type SignIn, signInOf } from './tickets.js';

/**
 * Tickets per minute per client address: one per console tab and reconnect, and an office behind one
 * address reconnects all its tabs after a restart (each with backoff); a ticket needs a valid token anyway.
 */
const TICKETS_PER_MINUTE = 600;

/** Open streams one instance serves at most; beyond, 503 UNAVAILABLE (the console retries later). */
export const LIVE_MAX_STREAMS = 5000;

export async function liveRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifySse, { heartbeatInterval: LIVE_HEARTBEAT_MS });
  const db = app.database.system;
  const { TOKEN_IDLE_S: idleS, TOKEN_ABSOLUTE_S: absoluteS, TOKEN_ROTATE_S: rotateS } = app.config;
  const policy = { idleS, absoluteS, rotateS };
  const hub = new LiveHub((stream) => signInOf(db, stream.family, stream.signIn.accountId, stream.tenantId, policy), app.log);
  let unsubscribe: (() => void)[] = [];
  app.addHook('onReady', async () => {
    unsubscribe = [app.database.events.onAll((event) => hub.receive(event)), app.database.events.onResync(() => hub.resync())];
  });
  app.addHook('preClose', async () => hub.closeAll());
  app.addHook('onClose', async () => {
    for (const stop of unsubscribe) stop();
  });

  registerEndpoint(app, liveEndpoints.ticket, async ({ principal, tenantId }) => ({
    ticket: await issueTicket(db, { accountId: principal.accountId, family: principal.family, tenantId }),
    expiresInS: LIVE_TICKET_TTL_S,
  }), { rateLimitPerMinute: TICKETS_PER_MINUTE });

  /** The event number before each stream request's sign-in was read (hub.add). */
  const seqBeforeSignIn = new WeakMap<FastifyRequest, number>();
  const endpoint = liveEndpoints.stream;
  app.route({
    method: 'GET',
    url: endpoint.path,
    sse: { kind: 'manual' },
    config: {
      access: endpoint.access, endpoint, response: { kind: 'stream', contentType: 'text/event-stream' },
      redeemTicket: async (_request, ticket) => {
        const grant = await redeemTicket(db, ticket);
        const signIn = grant ? await signInOf(db, grant.family, grant.accountId, grant.tenantId, policy) : undefined;
        if (!grant || !signIn) return undefined;
        const { accountId, username, type, authorities, sessionId } = signIn;
        return { tenantId: grant.tenantId, principal: { accountId, username, type, authorities, sessionId, family: grant.family } };
      },
    },
    onRequest: async (request) => {
      seqBeforeSignIn.set(request, hub.latestSeq);
    },
    handler: async (request, reply) => {
      const query = parseOrThrow(liveStreamQuery, request.query ?? {}, 'query');
      // HEAD (Fastify answers it with this handler): the head of a stream, without opening one.
      if (request.method === 'HEAD') return reply.type('text/event-stream').send();
      if (hub.size >= LIVE_MAX_STREAMS) throw new ApiError('UNAVAILABLE');
      const principal = request.principal as Principal;
      const signIn: SignIn = { accountId: principal.accountId, username: principal.username, type: principal.type, sessionId: principal.sessionId, authorities: principal.authorities };
      const resume = hub.resume(query.lastEventId ?? reply.sse.lastEventId ?? undefined);
      const sse = reply.sse;
      sse.keepAlive();
      const stream: LiveStream = new LiveStream({
        send: (message) => void sse.send(message).catch(() => undefined),
        backlog: () => reply.raw.writableLength,
        end: () => sse.close(),
      }, principal.family, request.tenantId, signIn, { epoch: hub.epoch, startSeq: resume.startSeq, onClose: () => hub.remove(stream) });
      sse.onClose(() => stream.close());
      stream.control('ready', { resumed: resume.kind === 'replay' });
      if (resume.kind === 'reset') stream.control('reset', { reason: resume.reason });
      if (resume.kind === 'replay') for (const event of resume.events) stream.offer(event);
      hub.add(stream, seqBeforeSignIn.get(request) ?? 0);
    },
  });
}
