/**
 * System log of every mutating API call (issue #5): a non-GET call of a route whose access is not
 * `public`, made with a valid token, is written with who, tenant, action (`METHOD path`), target,
 * result (`success` or the error code), client address and time. Calls without a valid token are
 * refused anonymously and not logged (nobody to name; it would let anyone fill the log). A signed-in
 * account refused a tenant it may not use is logged in that tenant's log (an attempt on it).
 *
 * Secrets never reach the log: the request body is not stored; only the whitelisted fields below
 * (ids, names, flags, authority keys) are copied into `detail`. Passwords, keyIds, tokens and
 * credential digits are not on the list. Routes that write their own row (sign-out) set `audit: false`;
 * sign-in is `public` and logged by its own service, so nothing is logged twice.
 *
 * The row is written in onSend, i.e. before the response leaves: a caller that got an answer can
 * read its row at once. A failure to write is logged and does not turn the answer into an error.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { insertAudit } from '../modules/audit/repo.js';

/** Body fields copied into the log, in target-preference order for the first four. */
export const AUDITED_FIELDS = ['id', 'accountId', 'username', 'name', 'roleIds', 'enabled', 'authorities'] as const;
const TARGET_FIELDS = ['id', 'accountId', 'username', 'name'] as const;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const MAX_TEXT = 64;
const MAX_ITEMS = 50;

type Scalar = string | number | boolean;

function scalar(value: unknown): Scalar | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.slice(0, MAX_TEXT);
  return undefined;
}

function safeValue(value: unknown): Scalar | Scalar[] | undefined {
  if (!Array.isArray(value)) return scalar(value);
  return value.slice(0, MAX_ITEMS).map(scalar).filter((item): item is Scalar => item !== undefined);
}

/** The whitelisted, non-secret fields of a request body (undefined when there are none). */
export function auditedFields(body: unknown): Record<string, Scalar | Scalar[]> | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const source = body as Record<string, unknown>;
  const picked: Record<string, Scalar | Scalar[]> = {};
  for (const field of AUDITED_FIELDS) {
    const value = safeValue(source[field]);
    if (value !== undefined) picked[field] = value;
  }
  return Object.keys(picked).length > 0 ? picked : undefined;
}

/** True when the call is one the audit hook records. */
function isAudited(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  if (request.is404 || SAFE_METHODS.has(request.method)) return false;
  if (!config.access || config.access === 'public' || config.audit === false) return false;
  return request.principal !== undefined;
}

async function writeRow(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const principal = request.principal;
  if (!principal) return;
  const detail = auditedFields(request.body);
  const targetField = TARGET_FIELDS.find((field) => detail?.[field] !== undefined);
  const result = reply.statusCode < 400 ? 'success' : (request.errorCode ?? `HTTP_${reply.statusCode}`);
  await insertAudit(app.database.system, {
    tenantId: request.tenantId, accountId: principal.accountId, username: principal.username,
    action: `${request.method} ${request.routeOptions.url}`, target: targetField ? String(detail?.[targetField]) : '',
    result, clientIp: request.ip, detail,
  });
}

export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isAudited(request)) return payload;
    try {
      await writeRow(app, request, reply);
    } catch (error) {
      request.log.error({ err: error }, 'system log row not written');
    }
    return payload;
  });
});
