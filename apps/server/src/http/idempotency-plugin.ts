/**
 * Wires Idempotency-Key (idempotency.ts) into the app: the request decoration registerEndpoint sets when
 * it claims a key, the hook that stores the answer of a claimed request (preSerialization: every JSON
 * answer, errors included, before compression), and the hourly cleanup of expired keys (a job that
 * starts when the app is ready and stops when it closes).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { deleteExpiredKeys, finishClaim } from './idempotency.js';

const CLEANUP_MS = 3600 * 1000;

export const idempotencyPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('idempotency', undefined);
  app.addHook('preSerialization', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    await finishClaim(app.database, claim, reply.statusCode, JSON.stringify(payload));
    return payload;
  });
  // An answer that is no JSON object (a stream, or a failure before serialization) stores nothing: release the key.
  app.addHook('onResponse', async (request, reply) => {
    const claim = request.idempotency;
    if (!claim) return;
    request.idempotency = undefined;
    await finishClaim(app.database, claim, reply.statusCode, undefined).catch((error) => request.log.warn({ err: error }, 'idempotency key not released'));
  });
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      deleteExpiredKeys(app.database).catch((error) => app.log.warn({ err: error }, 'idempotency cleanup failed'));
    }, CLEANUP_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
});
