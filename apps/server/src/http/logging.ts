/**
 * What the server logs (docs/deploy.md "Logs"):
 * - one line per request: `debug` for reads that succeeded, `info` for every mutating call (POST, PUT,
 *   PATCH, DELETE) and every answer >= 400, with method, route, status, ms, account and tenant;
 * - errors without bound SQL parameters or values: Drizzle's `Failed query: ... params: ...` message
 *   and PostgreSQL's `detail` ("Key (username)=(bob) already exists") would print what a caller sent
 *   (a device key, a password's digits), so `err` keeps the SQL text, the PostgreSQL code and the
 *   constraint, never the parameters, the detail or a message quoting input.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** PostgreSQL error fields that name the failure without quoting data. */
const PG_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'routine'] as const;

type Serialized = Record<string, unknown>;

/** `err` serializer: like pino's standard one, minus SQL parameters and PostgreSQL messages that may quote values. */
export function safeError(error: unknown): Serialized {
  if (!(error instanceof Error)) return { message: String(error) };
  const out: Serialized = { type: error.constructor.name, stack: stackWithoutMessage(error) };
  const query = (error as { query?: unknown }).query;
  if (typeof query === 'string') {
    out.message = 'Failed query';
    out.query = query;
  } else if (!isPostgresError(error)) {
    out.message = error.message;
    for (const key of ['code', 'statusCode']) {
      const value = (error as unknown as Serialized)[key];
      if (value !== undefined) out[key] = value;
    }
  }
  if (isPostgresError(error)) for (const field of PG_FIELDS) out[field] = (error as unknown as Serialized)[field];
  if (error.cause !== undefined) out.cause = safeError(error.cause);
  return out;
}

function isPostgresError(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && ('severity' in error || 'routine' in error || 'constraint' in error);
}

/** The stack's frames only: its first line repeats the message, which may carry parameters. */
function stackWithoutMessage(error: Error): string | undefined {
  return error.stack?.split('\n').filter((line) => line.trimStart().startsWith('at ')).join('\n');
}

/** Fastify logger options: level, token redaction, the safe `err` serializer. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.zw_paas_token', 'req.headers.authorization'],
    // Typed as Fastify's err serializer; the shape is pino's (type, message, stack) plus safe fields.
    serializers: { err: safeError as never, error: safeError },
  };
}

/** One line per finished request (Fastify's own request logging is disabled in app.ts). */
export const requestLogPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const line = {
      method: request.method, url: request.routeOptions.url ?? request.url, status, ms: Math.round(reply.elapsedTime),
      accountId: request.principal?.accountId, tenantId: request.tenantId, ip: request.ip,
    };
    if (READS.has(request.method) && status < 400) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  });
});
