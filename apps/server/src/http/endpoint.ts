/**
 * Registers a route from a contract Endpoint: the route's access is the endpoint's, query/body are
 * parsed with its zod schemas (400 with localized fields on failure), and the handler's result is
 * wrapped in the success envelope. Handlers get `inTenant(fn)` to run queries confined to the tenant
 * by row-level security: in one transaction, whose first run on an endpoint with an `action` also
 * writes the call's system-log row from the parsed body (http/audit-plugin.ts) with the target object's
 * name and changed fields read before and after it (modules/auditLog/targets.ts); on a GET without an
 * action, as a read (Database.readTenant: no transaction on PostgreSQL, and writes refused). An endpoint
 * marked `idempotent` honours the Idempotency-Key header (http/idempotency.ts); one of `scope` platform
 * is refused to anyone but platform administrators by the auth hook.
 */
import type { Endpoint } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { setTimeout } from 'node:timers/promises';
import type { Db, Tx } from '../db/client.js';
import { isTransientConflict } from '../db/errors.js';
import type { Principal } from './context.js';
// The app.lifecycle declaration (health-plugin.ts), for programs that compile this file without the app (bench).
import type {} from './health-plugin.js';
import { writeAuditRow } from './audit-plugin.js';
import { claimIdempotencyKey, fingerprintOf, IDEMPOTENCY_HEADER, idempotencyKeyOf, markApplied } from './idempotency.js';
import { auditTargetOf, describeChange, readTarget } from '../modules/auditLog/targets.js';
import { parseOrThrow } from './validation.js';
import { envelopeText, JsonText } from './json-text.js';

/** Runs of a request's transaction when PostgreSQL reports a deadlock or serialization failure. */
const CONFLICT_ATTEMPTS = 3;

export interface HandlerContext<E extends Endpoint> {
  query: E extends Endpoint<infer Q, z.ZodType, z.ZodType> ? z.output<Q> : never;
  body: E extends Endpoint<z.ZodType, infer B, z.ZodType> ? z.output<B> : never;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Present on every route whose access is not `public`. */
  principal: E['access'] extends 'public' ? Principal | undefined : Principal;
  tenantId: number;
  /**
   * Runs `fn` in one transaction confined to the request's tenant. On a logged endpoint the system-log
   * row is written in it, after `fn`; pass `{ read: true }` for a transaction that only reads. On a
   * read, `{ snapshot: true }` makes every statement of `fn` see the same snapshot (REPEATABLE READ,
   * read-only on PostgreSQL; PGlite's one connection already is), e.g. an export read page by page.
   */
  inTenant<T>(fn: (tx: Tx) => Promise<T>, options?: { read?: boolean; snapshot?: boolean }): Promise<T>;
}

export interface EndpointOptions {
  /** Send the data as it is, without the envelope (the spec's static config file). */
  raw?: boolean;
  /** Send the data (a string or bytes) as it is with this content type, e.g. `text/csv; charset=utf-8`, unless the handler set one. */
  contentType?: string;
  /** False when the handler writes its own system-log row; calls whose endpoint has an `action` are logged by default. */
  audit?: boolean;
  /** Per-route rate limit (requests per minute per client address). */
  rateLimitPerMinute?: number;
}

/** Registers `endpoint` on `app` with `handler`; returns nothing (Fastify routes are registered at boot). */
export function registerEndpoint<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: (context: HandlerContext<E>) => Promise<z.output<E['response']> | JsonText<z.output<E['response']>>>,
  options: EndpointOptions = {},
): void {
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: {
      access: endpoint.access,
      // For the OpenAPI document (openapi.ts): the contract endpoint and how the route answers.
      endpoint,
      response: options.contentType ? { kind: 'file', contentType: options.contentType } : { kind: options.raw ? 'raw' : 'envelope' },
      ...(endpoint.action && options.audit !== false ? { action: endpoint.action } : {}),
      ...(endpoint.scope ? { scope: endpoint.scope } : {}),
      ...(options.rateLimitPerMinute ? { rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } } : {}),
    },
    handler: async (request, reply) => {
      const readOnly = endpoint.method === 'GET' && !endpoint.action;
      const query = endpoint.query ? parseOrThrow(endpoint.query, request.query ?? {}, 'query') : undefined;
      const body = endpoint.body ? parseOrThrow(endpoint.body, request.body ?? {}, 'body') : undefined;
      // Idempotency-Key (http/idempotency.ts): a repeat gets the first answer, nothing runs again.
      const key = endpoint.idempotent && request.principal ? idempotencyKeyOf(request.headers[IDEMPOTENCY_HEADER]) : undefined;
      if (key !== undefined && request.principal) {
        const scope = { tenantId: request.tenantId, accountId: request.principal.accountId };
        const outcome = await claimIdempotencyKey(app.database, scope, key, fingerprintOf(endpoint.method, endpoint.path, request.body));
        if (outcome.kind === 'replay') {
          request.audited = true; // a repeat changes nothing: the first request's row stands
          return reply.code(outcome.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(outcome.body);
        }
        request.idempotency = outcome.claim;
      }
      const inTenant = async <T>(fn: (tx: Tx) => Promise<T>, { read = false, snapshot = false } = {}) => {
        // A read (a GET without a system-log action) needs no transaction: db/tenant-reader.ts.
        if (readOnly && snapshot && app.database.kind === 'postgres') {
          return app.database.readTenant(request.tenantId, (db) => (db as Db).transaction(fn, { isolationLevel: 'repeatable read', accessMode: 'read only' }));
        }
        if (readOnly) return app.database.readTenant(request.tenantId, (db) => fn(db as unknown as Tx));
        const audited = request.audited;
        // The object changed, read before and after the change: its name and changed fields for the row.
        const action = request.routeOptions.config.action;
        const target = !read && !audited && action ? auditTargetOf(action, body, request.tenantId) : undefined;
        // A deadlock or serialization failure rolled everything back: the whole transaction runs again.
        for (let attempt = 1; ; attempt++) {
          try {
            return await app.database.withTenant(request.tenantId, async (tx) => {
              const before = target ? await readTarget(tx, target) : undefined;
              const result = await fn(tx);
              if (!read) await writeAuditRow(tx, request, 'success', body, target ? describeChange(before, await readTarget(tx, target)) : undefined);
              if (!read && request.idempotency) await markApplied(tx, request.idempotency);
              return result;
            });
          } catch (error) {
            request.audited = audited; // rolled back with the change
            if (attempt >= CONFLICT_ATTEMPTS || !isTransientConflict(error)) throw error;
            request.log.warn({ err: error, attempt }, 'transaction conflict, running it again');
            await setTimeout(Math.random() * 20 * attempt);
          }
        }
      };
      const context = { query, body, request, reply, principal: request.principal, tenantId: request.tenantId, inTenant } as HandlerContext<E>;
      app.lifecycle.handlersRunning += 1; // graceful shutdown waits for it (health-plugin.ts handlersFinished)
      let data: z.output<E['response']> | JsonText<z.output<E['response']>>;
      try {
        data = await handler(context);
        await writeAuditRow(app.database.system, request, 'success', body);
      } finally {
        app.lifecycle.handlersRunning -= 1;
      }
      // A handler that set the exact type keeps it (contentType `image/*` names the family for the OpenAPI document).
      if (options.contentType) return (reply.hasHeader('content-type') ? reply : reply.type(options.contentType)).send(data);
      if (data instanceof JsonText) return reply.type('application/json; charset=utf-8').send(options.raw ? data.text : envelopeText(data));
      if (options.raw) return data;
      return { success: true, code: 'OK', message: 'success', data: data ?? null };
    },
  });
}
