/**
 * OpenAPI 3.1 operations from the contract's endpoints (zod 4 `z.toJSONSchema`): the
 * @fastify/swagger `transform` (docs-plugin.ts) turns each registered route into its documented
 * schema: authority, query parameters, request body, the success envelope around the response data,
 * the error envelopes and the two headers (zw_paas_token, tenantId). Nothing here validates requests:
 * the handlers parse with the same zod schemas (endpoint.ts), so the documentation cannot drift.
 */
import { accessKeys, endpointName, ERRORS, type Endpoint, type ErrorCode, TENANT_HEADER, TOKEN_HEADER } from '@iot/contract';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import { API_KEY_SCHEME, keyMayCall } from './api-key-auth.js';

type JsonSchema = Record<string, unknown>;

/** How a route answers (registerEndpoint's options), kept in its config for the documentation. */
export type ResponseKind = { kind: 'envelope' } | { kind: 'raw' } | { kind: 'file'; contentType: string }
  /** A payment provider's protocol (WeChat Pay notifications): 204 once applied, `{"code":"FAIL","message"}` otherwise. */
  | { kind: 'provider' }
  /** Server-sent events (the live stream): messages for as long as the connection stays open. */
  | { kind: 'stream'; contentType: 'text/event-stream' };

const STREAM_DESCRIPTION = [
  'Server-sent events until the server or the client ends the connection. Each message: `id: <epoch>-<seq>`, `event: <name>`, `data: <json>`.',
  'First `ready` ({resumed}); then the domain events of the data centre that the caller\'s pages show (docs/events.md: the event map and EVENT_AUDIENCE), at most one message per event name and second',
  '(later ones of the second merged: the latest payload with `merged` and the `lockIds` / `airSwitchIds` of all of them);',
  '`reset` ({reason}): events may have been missed, refetch; `closed` ({reason: signedOut | shutdown | slow}) before the server ends it; a comment line every 15 s.',
  'Resume with the Last-Event-ID header or `lastEventId`. A browser\'s EventSource passes `ticket` (POST /iot/v1/events/ticket) instead of the headers.',
].join(' ');

/** zod -> JSON Schema 2020-12 (OpenAPI 3.1), input side for requests, output side for responses. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return json;
}

const codesWithStatus = (status: number) => (Object.keys(ERRORS) as ErrorCode[]).filter((code) => ERRORS[code].status === status);

/** The failure envelope with the codes a status may carry. */
function errorResponse(status: number, description: string): JsonSchema {
  const codes = codesWithStatus(status);
  return {
    description: `${description}. code: ${codes.join(', ')}`,
    type: 'object',
    required: ['success', 'code', 'message', 'data'],
    properties: {
      success: { const: false },
      code: { type: 'string', enum: codes },
      message: { type: 'string', description: 'In the caller\'s language (Accept-Language; Chinese by default)' },
      data: { type: 'null' },
      errors: {
        type: 'array', description: 'The failing fields (400)',
        items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'object', properties: { 'zh-CN': { type: 'string' }, 'en-US': { type: 'string' } } } } },
      },
    },
  };
}

function successResponse(endpoint: Endpoint, kind: ResponseKind): JsonSchema {
  if (kind.kind === 'file') return { description: `A file (${kind.contentType})`, content: { [kind.contentType.split(';')[0] as string]: { schema: { type: 'string' } } } };
  if (kind.kind === 'stream') return { description: STREAM_DESCRIPTION, content: { [kind.contentType]: { schema: { type: 'string' } } } };
  if (kind.kind === 'provider') return { description: 'Answered 204 after the change is committed; a refused or failed notification gets 4xx/5xx with {"code":"FAIL","message":...} (WeChat Pay retries)' };
  const data = jsonSchemaOf(endpoint.response, 'output');
  if (kind.kind === 'raw') return { description: 'The data as it is (no envelope)', ...data };
  return {
    description: 'Success envelope',
    type: 'object',
    required: ['success', 'code', 'message', 'data'],
    properties: { success: { const: true }, code: { const: 'OK' }, message: { type: 'string' }, data },
  };
}

/**
 * The operationId of a route: its contract endpoint's name (`lock.list`, contract api/all.ts); a route
 * outside the contract (health, documentation, the web app) is `platform.` and its path in camel case
 * (`platform.readyz`, `platform.docsJsScalarJs`; a trailing slash adds `Index`: `platform.docsIndex`).
 */
export function operationIdOf(endpoint: Endpoint | undefined, method: string, url: string): string {
  const named = endpoint && endpointName(endpoint);
  if (named) return named;
  const words = url.split(/[^A-Za-z0-9]+/).filter(Boolean);
  if (url.length > 1 && url.endsWith('/')) words.push('index');
  const path = words.map((word, index) => (index === 0 ? word : word[0]?.toUpperCase() + word.slice(1))).join('') || 'root';
  return `platform.${method === 'GET' ? path : `${method.toLowerCase()}${path[0]?.toUpperCase()}${path.slice(1)}`}`;
}

/** The tag of an operation: its contract table (`lock`), or `platform` for health, documentation and the web app. */
export function tagOf(operationId: string): string {
  return operationId.split('.')[0] ?? 'platform';
}

/** The documented schema of one route; `undefined` leaves the route as @fastify/swagger sees it. */
export function operationOf(route: RouteOptions): JsonSchema | undefined {
  const config = (route.config ?? {}) as { access?: Endpoint['access']; endpoint?: Endpoint; response?: ResponseKind; scope?: 'platform' };
  const access = config.access;
  if (!access) return undefined;
  const isPublic = access === 'public';
  const keys = accessKeys(access);
  const authority = isPublic ? 'public (no token)' : keys.length === 0 ? 'any signed-in account' : `one of: ${keys.join(', ')} (administrators hold every key)`;
  const endpoint = config.endpoint;
  const method = String([route.method].flat()[0]);
  const operationId = operationIdOf(endpoint, method, route.url);
  const responses: JsonSchema = {};
  const schema: JsonSchema = {
    operationId,
    tags: [tagOf(operationId)],
    description: `Authority: ${authority}.`,
    'x-authority': isPublic ? 'public' : keys.length === 0 ? 'authenticated' : keys,
    // An API key may stand in for the token where keys may call the route at all.
    security: isPublic ? [] : [{ [TOKEN_HEADER]: [], [TENANT_HEADER]: [] },
      ...(keyMayCall(method, route.url, access, config.scope) ? [{ [API_KEY_SCHEME]: [] }] : [])],
    response: responses,
  };
  if (endpoint) {
    if (endpoint.query) schema.querystring = jsonSchemaOf(endpoint.query, 'input');
    if (endpoint.body) schema.body = jsonSchemaOf(endpoint.body, 'input');
    responses[200] = successResponse(endpoint, config.response ?? { kind: 'envelope' });
    if (endpoint.query || endpoint.body) responses[400] = errorResponse(400, 'Invalid input');
  } else {
    responses[200] = { description: 'OK' };
  }
  if (endpoint?.scope === 'platform') {
    schema.description = `${schema.description} Platform-wide object (shared by every data centre): platform administrators (account type 0) only, whatever the authorities.`;
    schema['x-scope'] = 'platform';
  }
  if (endpoint?.idempotent) {
    // IETF draft-ietf-httpapi-idempotency-key-header (http/idempotency.ts).
    schema.headers = { type: 'object', properties: { 'Idempotency-Key': {
      type: 'string', maxLength: 257,
      description: 'Optional. A unique key (e.g. a UUID, as an RFC 8941 string "…") per intended call: the same key and body within 24 h get the first answer again (header Idempotent-Replayed: true).',
    } } };
    schema['x-idempotent'] = true;
    responses[409] = errorResponse(409, 'A request with this Idempotency-Key is still being processed, or another conflict');
    responses[422] = errorResponse(422, 'The Idempotency-Key was used for a different request body');
  }
  if (!isPublic) responses[403] = errorResponse(403, 'No valid token (TOKEN_EXPIRED: sign in again), or not allowed in this tenant');
  responses[500] = errorResponse(500, 'Internal error');
  responses[503] = errorResponse(503, 'Busy (load shedding); retry after the Retry-After header');
  return schema;
}

/** The catalogue of error codes, as a Markdown table for the document's description. */
export function errorCatalogue(): string {
  const rows = (Object.keys(ERRORS) as ErrorCode[]).map((code) => `| ${code} | ${ERRORS[code].status} | ${ERRORS[code].message['zh-CN']} | ${ERRORS[code].message['en-US']} |`);
  return ['| code | HTTP | zh-CN | en-US |', '|---|---|---|---|', ...rows].join('\n');
}
