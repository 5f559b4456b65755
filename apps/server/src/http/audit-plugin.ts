/**
 * System log of every change made through the API. A route is logged when its contract
 * endpoint declares an `action` (a readable name and the body fields naming the target); reads are
 * never logged, whatever their method. The row holds who, tenant, action (`METHOD path`, whose label
 * the contract gives), target, result (`success` or the error code), client address and time.
 *
 * - A success is written by `registerEndpoint` from the parsed, validated body, inside the same
 *   transaction as the change (the first `inTenant` of the handler): a change without its row does not
 *   commit. A handler that opens no tenant transaction gets its row right after it returns.
 * - A refusal (validation, authority, business rule) changed nothing; this plugin writes its row in
 *   onSend, before the answer leaves. Its detail comes from the raw body, so only whitelisted scalar
 *   fields holding storable text (SAFE_TEXT_PATTERN) are copied. Calls without a valid token are
 *   refused anonymously and not logged (nobody to name; it would let anyone fill the log).
 *
 * Secrets never reach the log: only the whitelisted fields below (ids, names, flags, authority keys)
 * are copied into `detail`; passwords, keyIds, tokens, card numbers and digits are not on the list.
 * Routes writing their own row (sign-out, reveal) pass `audit: false`; sign-in is logged by its service.
 */
import { type AuditAction, SAFE_TEXT_PATTERN } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Executor } from '../db/client.js';
import type { Principal } from './context.js';
import { insertAudit } from '../modules/auditLog/repo.js';

/** Body fields copied into the log. */
export const AUDITED_FIELDS = ['id', 'ids', 'accountId', 'lockId', 'lockUserId', 'imei', 'username', 'name', 'action', 'roleIds', 'enabled', 'authorities',
  'productId', 'lockIds', 'outTradeNo', 'amountFen', 'reason', 'nameZh', 'tenantIds', 'timeZone', 'stayId'] as const;
const MAX_TEXT = 64;
const MAX_ITEMS = 50;

type Scalar = string | number | boolean;
export type AuditDetail = Record<string, Scalar | Scalar[]>;

function scalar(value: unknown): Scalar | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return SAFE_TEXT_PATTERN.test(value) ? value.slice(0, MAX_TEXT) : undefined;
  return undefined;
}

function safeValue(value: unknown): Scalar | Scalar[] | undefined {
  if (!Array.isArray(value)) return scalar(value);
  return value.slice(0, MAX_ITEMS).map(scalar).filter((item): item is Scalar => item !== undefined);
}

/** The whitelisted, non-secret, storable fields of a body (undefined when there are none). */
export function auditedFields(body: unknown): AuditDetail | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const source = body as Record<string, unknown>;
  const picked: AuditDetail = {};
  for (const field of AUDITED_FIELDS) {
    const value = safeValue(source[field]);
    if (value !== undefined) picked[field] = value;
  }
  return Object.keys(picked).length > 0 ? picked : undefined;
}

/** The target of a row: the first of the action's target fields present in the detail. */
function targetOf(action: AuditAction, detail: AuditDetail | undefined): string {
  const field = action.target?.find((name) => detail?.[name] !== undefined);
  const value = field ? detail?.[field] : undefined;
  return value === undefined ? '' : String(value).slice(0, 200);
}

/** Who the system log names: the account, or for an API key `<creator> · API key <name>`. */
export function actorOf(principal: Principal): string {
  return principal.apiKey ? `${principal.username} · API key ${principal.apiKey.name}` : principal.username;
}

/** Writes the request's system-log row with `result`, detail from `body` (and the target's name and changes when known); marks the request as logged. */
export async function writeAuditRow(db: Executor, request: FastifyRequest, result: string, body: unknown, described?: { targetName: string | null; changes: Record<string, [unknown, unknown]> | null }): Promise<void> {
  const action = request.routeOptions.config.action;
  const principal = request.principal;
  if (!action || !principal || request.audited) return;
  const fields = auditedFields(body);
  const detail = principal.apiKey ? { ...fields, apiKeyId: principal.apiKey.id } : fields;
  await insertAudit(db, {
    tenantId: request.tenantId, accountId: principal.accountId, username: actorOf(principal),
    action: `${request.method} ${request.routeOptions.url}`, target: targetOf(action, fields), result, clientIp: request.ip, detail, ...described,
  });
  request.audited = true;
}

async function writeRefusal(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.is404 || request.audited || reply.statusCode < 400) return;
  await writeAuditRow(app.database.system, request, request.errorCode ?? `HTTP_${reply.statusCode}`, request.body);
}

export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('audited', false);
  app.addHook('onSend', async (request, reply, payload) => {
    try {
      await writeRefusal(app, request, reply);
    } catch (error) {
      request.log.error({ err: error }, 'system log row of a refusal not written');
    }
    return payload;
  });
});
