/**
 * Property-based fuzzing of the HTTP API, shared by test/fuzz.test.ts (a fixed seed, a few
 * thousand requests in `npm test`) and bench/fuzz.ts (`npm run fuzz`, ten thousand or more).
 *
 * Every request targets a route of the live route table (app.routeTable); the field names come from
 * the route's contract endpoint (apiEndpoints), the values from hostile pools: NUL, control characters,
 * lone surrogates, huge strings, far-range times, out-of-range and non-integer numbers,
 * injection strings, wrong types, deep JSON, and per field name HOSTILE_BY_FIELD; bodies also come as
 * malformed JSON or under wrong content types, and upload endpoints get hostile multipart forms
 * (fuzz-pools.ts: file names and fields with control characters); with an administrator's or an
 * operator's fresh token, a forged one, or none; with odd tenantId headers. A run fails on any 5xx or
 * any answer slower than SLOW_MS.
 */
import { apiEndpoints, type Endpoint, TOKEN_HEADER } from '@iot/contract';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { z } from 'zod';
import { accounts } from '../src/db/schema.js';
import { issueToken } from '../src/modules/oauth/tokens.js';
import { DEMO_RECEIVER_PATH } from '../src/demo/receiver.js';
import { HOSTILE_BY_FIELD, multipartArbitrary } from './fuzz-pools.js';
import { sendInProcess, sendOverSocket } from './fuzz-transport.js';

export const SLOW_MS = 5_000;
const NUMBERS = [0, -1, 1, 2, 7, 100, 101, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, 2 ** 63, 1e308, -1e308, 0.5, -0.0, 1e-9];
const STRINGS = [
  '\u0000', 'a\u0000b', '\uD800', 'x\uDC00y', '\uDBFF\uDFFF', "' OR '1'='1", "'; DROP TABLE accounts; --", '%', '_', '\\', '%00',
  `$${'{7*7}'}`, '{{7*7}}', '<script>alert(1)</script>', '../../etc/passwd', 'NaN', 'Infinity', '-0', '1e400', '0x10', ' ', '', 'true',
  'null', '__proto__', 'constructor', '🙂', 'ä'.repeat(300), '2147483648', '-1', '861234500000001', 'add', 'delete', 'reportLost',
  '2025-01-31T08:00:00+08:00', '9999-12-31T23:59:59Z', 'HOME_PAGE', 'admin', 'password', 'card',
  // Far-range times (zod takes them, PostgreSQL or TIME_RANGE does not), control characters other than NUL.
  '0000-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59-12:00', '1969-12-31T23:59:59Z', '2200-01-01T00:00:00Z', '0000-01-01', '9999-12-31',
  '\u0001', 'a\u001bb', '\u007f', 'x\u0085', 'a\nb', 'tab\there',
];
/** Raw query values: invalid percent-encodings, encoded NUL and surrogates. */
const RAW_QUERY = ['%00', '%ED%A0%80', '%FF', '%', '%E4%B8', '%C0%80', 'a%00b', '1%2C2', '%27%20OR%201%3D1--', '1e3', '-5', '99999999999999999999'];
/** Bodies that are not the JSON they claim to be. */
const RAW_BODIES = [
  '', '{', '{"a":', 'nul', '[]', '[1,2]', '"text"', '42', 'null', 'true', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}',
  '{"id":1,"id":2}', '{"name":"\\ud800"}', '{"name":"\\u0000"}', '\u0000', '\uFEFF{}', '{"a":1}garbage',
];
const CONTENT_TYPES = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x',
  'application/xml', 'application/json; charset=latin1', 'application/octet-stream', undefined];
const TENANTS = ['0', '-1', '999999999', '2147483648', '1e3', 'abc', ' 100', '00100', '100.5'];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const hugeString = fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n));
const deepArray = fc.integer({ min: 100, max: 2_000 }).map((n) => {
  let value: Json = 1;
  for (let i = 0; i < n; i++) value = [value];
  return value;
});
/** JSON nested far deeper than any schema: arrays or objects, up to 100,000 levels. */
const deepText = fc.tuple(fc.integer({ min: 1_000, max: 100_000 }), fc.boolean())
  .map(([n, objects]) => (objects ? `${'{"a":'.repeat(n)}1${'}'.repeat(n)}` : `${'['.repeat(n)}1${']'.repeat(n)}`));
const scalar: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(...NUMBERS), fc.constantFrom(...STRINGS), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'binary', maxLength: 40 }), fc.boolean(), fc.constant(null),
);
const value: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'id', 'name', '__proto__'), scalar, { maxKeys: 3 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.array(fc.integer(), { minLength: 501, maxLength: 3_000 }) },
  { weight: 1, arbitrary: deepArray },
);

/** Property names of a schema's input (nested objects and unions included). */
function fieldNames(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record.properties && typeof record.properties === 'object') for (const key of Object.keys(record.properties)) names.add(key);
    for (const child of Object.values(record)) walk(child);
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  return [...names];
}

export interface RouteUnderTest { method: string; url: string; endpoint?: Endpoint; fields: string[] }

/** The live routes (HEAD dropped) with the field names of their contract endpoint. */
export function routesOf(app: FastifyInstance): RouteUnderTest[] {
  return app.routeTable.filter((route) => route.method !== 'HEAD').map((route) => {
    const endpoint = apiEndpoints.find((e) => e.method === route.method && e.path === route.url);
    return { method: route.method, url: route.url, endpoint, fields: [...fieldNames(endpoint?.query), ...fieldNames(endpoint?.body)] };
  });
}

/** Values a well-meaning client would send, by field name: a request is one of these with a few fields made hostile. */
const PLAUSIBLE: Record<string, readonly Json[]> = {
  id: [1, 2, 3], ids: [[1, 2]], accountId: [1, 2], lockId: [1, 2], lockUserId: [1], commandIds: [[1, 2]], roleIds: [[1]],
  username: ['admin', 'operator', 'fuzz-user'], password: ['AAAA', '1234', '123456'], keyId: ['k1'], checkCode: ['abcd'], checkCodeId: ['c1'],
  name: ['Zhang San', '张三'], description: ['d'], authorities: [['HOME_PAGE']], enabled: [true, false], phone: ['13800000000'],
  action: ['add', 'modify', 'delete', 'freeze', 'unfreeze', 'reportLost', 'sign-in'], cardNumber: ['AABBCCDD'], reversed: [false],
  oneTime: [true], validFrom: ['2025-01-01T00:00:00+08:00'], validTo: ['2025-01-02T00:00:00+08:00'], method: ['password', 'card'],
  imei: ['861234500000001'], keyword: ['a', '%', '_'], config: [{ volume: 5 }], result: ['success'], format: ['csv', 'xlsx'],
  startTime: ['2025-01-01T00:00:00+08:00'], endTime: ['2030-01-01T00:00:00+08:00'], current: [1, 2], size: [10, 500], limit: [20],
  fingerprintSlot: [1], kind: ['password', 'card'], state: ['QUEUED'], type: ['doorState'], online: ['true'], at: ['2025-01-01T00:00:00Z'],
};
const plausible = (field: string): fc.Arbitrary<Json> => (PLAUSIBLE[field] ? fc.constantFrom(...(PLAUSIBLE[field] as Json[])) : scalar);
/** A hostile value for `field`: the shared pools, or now and then one of the field's own (HOSTILE_BY_FIELD). */
const hostile = (field: string): fc.Arbitrary<Json> => (HOSTILE_BY_FIELD[field] ? fc.oneof({ weight: 2, arbitrary: value }, fc.constantFrom(...(HOSTILE_BY_FIELD[field] as Json[]))) : value);

/** A plausible object over `fields` with zero to two fields hostile and now and then an unknown field. */
const objectOf = (fields: string[]) =>
  fc.tuple(fc.subarray(fields, { minLength: Math.min(fields.length, 1) }), fc.array(fc.constantFrom('extra', 'tenantId', 'type', 'passwordHash'), { maxLength: 1 }))
    .chain(([known, extra]) => fc.tuple(
      fc.record(Object.fromEntries(known.map((key) => [key, plausible(key)]))),
      fc.record(Object.fromEntries(extra.map((key) => [key, value]))),
      fc.subarray(known, { maxLength: Math.min(2, known.length) }).chain((keys) => fc.record(Object.fromEntries(keys.map((key) => [key, hostile(key)])))),
    ))
    .map(([base, extra, hostile]) => ({ ...base, ...extra, ...hostile }) as Json);

const queryValue = (v: Json) => { try { return encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v)); } catch { return '%ED%B0%80'; } };

function queryOf(fields: string[]): fc.Arbitrary<string> {
  return objectOf(fields).chain((object) => fc.tuple(
    fc.constant(Object.entries(object as Record<string, Json>).map(([key, v]) => `${key}=${typeof v === 'string' || typeof v === 'number' ? queryValue(String(v)) : queryValue(v)}`)),
    fc.array(fc.tuple(fc.constantFrom(...fields, 'x', 'current', 'size'), fc.oneof(fc.constantFrom(...RAW_QUERY), hugeString.map((h) => h.slice(0, 20_000)))), { maxLength: 2 }),
  )).map(([pairs, raw]) => {
    const all = [...pairs, ...raw.map(([key, v]) => `${key}=${v}`)];
    return all.length ? `?${all.join('&')}` : '';
  });
}

export interface FuzzRequest { route: RouteUnderTest; who: 'admin' | 'operator' | 'forged' | 'none'; options: InjectOptions }

/** One hostile request to one of `routes`. */
export function requestArbitrary(routes: RouteUnderTest[]): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...routes).chain((route) => {
    const upload = route.endpoint?.upload ? [{ weight: 9, arbitrary: multipartArbitrary(route.endpoint) as fc.Arbitrary<{ payload: string | Buffer; type: string | undefined }> }] : [];
    const body = fc.oneof(
      ...upload,
      { weight: 5, arbitrary: objectOf(route.fields).map((o) => ({ payload: JSON.stringify(o) as string | Buffer, type: 'application/json' as string | undefined })) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...RAW_BODIES), fc.constantFrom(...CONTENT_TYPES)).map(([payload, type]) => ({ payload, type })) },
      { weight: 1, arbitrary: fc.tuple(value, fc.constantFrom(...CONTENT_TYPES)).map(([v, type]) => ({ payload: JSON.stringify(v), type })) },
      { weight: 1, arbitrary: deepText.map((payload) => ({ payload, type: 'application/json' as string | undefined })) },
    );
    const path = route.url.replace('*', 'x/%00/..%2F');
    return fc.record({
      who: fc.constantFrom('admin', 'admin', 'operator', 'forged', 'none'),
      query: queryOf(route.fields),
      body,
      tenant: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(undefined, '100', '101') }, { weight: 1, arbitrary: fc.constantFrom(...TENANTS) }),
      language: fc.constantFrom('en', 'zh-CN', '*', 'xx;q=abc', undefined),
    }).map(({ who, query, body, tenant, language }): FuzzRequest => {
      const headers: Record<string, string> = {};
      if (tenant !== undefined) headers.tenantId = tenant;
      if (language !== undefined) headers['accept-language'] = language;
      if (body.type) headers['content-type'] = body.type;
      const hasBody = route.method !== 'GET';
      return {
        route, who,
        options: { method: route.method as InjectOptions['method'], url: `${path}${query}`, headers, ...(hasBody ? { payload: body.payload } : {}) },
      };
    });
  });
}

export interface FuzzResult { requests: number; failures: string[]; slowestMs: number; statuses: Record<number, number> }

/** Sends `numRuns` hostile requests with `seed` (over a socket to `port` when given, else in process); collects 5xx and slow answers instead of stopping at the first. */
export async function fuzzApp(app: FastifyInstance, { seed, numRuns, port }: { seed: number; numRuns: number; port?: number }): Promise<FuzzResult> {
  const policy = { idleS: 3600, absoluteS: 3600, rotateS: 3600 };
  const idOf = async (username: string) => (await app.database.system.select({ id: accounts.id }).from(accounts).where(eq(accounts.username, username)))[0]?.id;
  const adminId = await idOf('admin');
  const operatorId = await idOf('operator');
  const result: FuzzResult = { requests: 0, failures: [], slowestMs: 0, statuses: {} };
  const tokenFor = async (who: FuzzRequest['who']) => {
    if (who === 'forged') return 'forged-token-0000';
    const id = who === 'admin' ? adminId : who === 'operator' ? operatorId : undefined;
    // The fuzzer may have deleted the operator (an admin call with a plausible id): then no token.
    return id === undefined ? undefined : issueToken(app.database.system, id, policy).catch(() => undefined);
  };
  await fc.assert(fc.asyncProperty(requestArbitrary(routesOf(app)), async ({ route, who, options }) => {
    const token = await tokenFor(who);
    const headers = { ...(options.headers as Record<string, string>), ...(token ? { [TOKEN_HEADER]: token } : {}) };
    const started = performance.now();
    const stream = Boolean(route.endpoint?.stream);
    const { statusCode, body } = (port === undefined ? undefined : await sendOverSocket(port, { ...options, headers }, stream)) ?? await sendInProcess(app, { ...options, headers }, stream);
    const ms = performance.now() - started;
    result.requests += 1;
    result.slowestMs = Math.max(result.slowestMs, ms);
    result.statuses[statusCode] = (result.statuses[statusCode] ?? 0) + 1;
    // /readyz answers 503 by design while the broker is not up (API test apps run no gateway); so does
    // the demo receiver after a fuzzed call switched it off (POST /nbdev/demoReceiver).
    const designed = statusCode === 503 && (route.url === '/readyz' || route.url === DEMO_RECEIVER_PATH);
    if ((statusCode >= 500 && !designed) || statusCode === 0 || ms > SLOW_MS) { // 0: the connection dropped unanswered
      const sent = String(options.payload ?? '').slice(0, 200);
      result.failures.push(`${statusCode} in ${ms.toFixed(0)} ms: ${who} ${route.method} ${String(options.url).slice(0, 200)} ${JSON.stringify(sent)} -> ${body.slice(0, 200)}`);
    }
  }), { seed, numRuns, endOnFailure: true });
  return result;
}
