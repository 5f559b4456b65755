/**
 * Class by class on PGlite and PostgreSQL: text
 * PostgreSQL cannot store (NUL, lone surrogates) in any free-text field, ids beyond their int4
 * column, malformed or mistyped bodies, deep JSON, odd headers. Each refusal names the failing field
 * in both languages and changes nothing.
 */
import { apiEndpoints, UNSAFE_TEXT, FIELD_MESSAGES } from '@iot/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, encryptPassword, signIn, skipSuite, tableChecksum, type TestContext } from './helper.js';

const TABLES = ['roles', 'accounts', 'audit_log', 'lock_users', 'credentials', 'commands'];

describe.skipIf(skipSuite)('bad input', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 2);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const expect400 = (response: LightMyRequestResponse, field: string) => {
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    const error = body.errors.find((e: { field: string }) => e.field === field);
    expect(error?.message).toEqual(FIELD_MESSAGES[UNSAFE_TEXT]);
  };

  it.each([['NUL', 'ad\u0000min'], ['lone surrogate', 'ad\uD800min']])('refuses %s in every kind of free text with 400 naming the field', async (_, bad) => {
    const key = await encryptPassword(ctx.app, 'whatever-password');
    expect400(await ctx.app.inject({ method: 'POST', url: '/oauth/token', payload: { username: bad, ...key } }), 'body.username');
    expect400(await ctx.app.inject({ method: 'POST', url: '/oauth/token', payload: { username: 'admin', password: key.password, keyId: bad } }), 'body.keyId');
    expect400(await ctx.app.inject({ method: 'POST', url: '/oauth/checkCode/match', payload: { checkCodeId: bad, checkCode: 'abcd' } }), 'body.checkCodeId');
    expect400(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/add', payload: { name: bad, authorities: [] } }), 'body.name');
    const encoded = bad.includes('\u0000') ? 'ad%00min' : 'ad%ED%A0%80min';
    for (const url of ['/v1/account/queryAll', '/iot/v1/lockDevice/list', '/iot/v1/operateCard/list', '/iot/v1/SysOperateLog/getLogList', '/iot/v1/logHeartbeat/list']) {
      const response = await call(ctx.app, admin, { method: 'GET', url: `${url}?keyword=${bad.includes('\u0000') ? encoded : encodeURIComponent('ad\uFFFDmin')}` });
      if (bad.includes('\u0000')) expect400(response, 'query.keyword');
      else expect(response.statusCode).toBe(200); // the query parser turns invalid UTF-8 into U+FFFD, which is storable
    }
  });

  it('refuses an unknown body field, even one holding NUL, and changes nothing', async () => {
    const before = await tableChecksum(ctx.database, TABLES.filter((t) => t !== 'audit_log'));
    const response = await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/add', payload: { name: 'extra-field', authorities: [], note: 'x\u0000' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { field: string }) => e.field)).toEqual(['body']);
    expect(await tableChecksum(ctx.database, TABLES.filter((t) => t !== 'audit_log'))).toBe(before);
  });

  it('refuses ids beyond their int4 column on every endpoint taking one', async () => {
    const takesId = apiEndpoints.filter((e) => e.method === 'POST' && e.access !== 'public' && e.body?.safeParse({ id: 1 }).error?.issues.every((i) => i.path[0] !== 'id'));
    expect(takesId.length).toBeGreaterThan(8);
    for (const endpoint of apiEndpoints.filter((e) => /\/(retry|discard|reveal)$|delete\/user$|sysRole\/delete$/.test(e.path))) {
      const response = await call(ctx.app, admin, { method: 'POST', url: endpoint.path, payload: { id: 2 ** 31 } });
      expect([endpoint.path, response.statusCode, response.json().errors?.[0]?.field]).toEqual([endpoint.path, 400, 'body.id']);
    }
    for (const url of ['/iot/v1/zg/registerDevice', '/iot/v1/lockDevice/clockSync']) {
      expect((await call(ctx.app, admin, { method: 'POST', url, payload: { lockId: 2 ** 31 } })).statusCode).toBe(400);
    }
    expect((await call(ctx.app, admin, { method: 'GET', url: '/v1/account/queryRoles?accountId=2147483648' })).statusCode).toBe(400);
    expect((await call(ctx.app, admin, { method: 'GET', url: '/v1/account/queryAll?current=2147483648' })).statusCode).toBe(400);
  });

  it('answers malformed, mistyped, huge and deep bodies with a 4xx', async () => {
    const post = (payload: string, type = 'application/json') =>
      call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/add', payload, headers: { 'content-type': type } });
    const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
    const bodies: [string, string?][] = [
      ['{'], ['{"name":'], ['[]'], ['[{"name":"a","authorities":[]}]'], ['"name"'], ['null'], ['42'], [deep(100_000)],
      [`{"name":${deep(50_000)},"authorities":[]}`], [JSON.stringify({ name: 'x'.repeat(900_000), authorities: [] })],
      ['{"__proto__":{"admin":true},"name":"p","authorities":[]}'], ['name=a', 'application/x-www-form-urlencoded'],
      ['{"name":"a","authorities":[]}', 'text/plain'], ['<role/>', 'application/xml'], ['x'.repeat(2_000_000)],
    ];
    for (const [payload, type] of bodies) {
      const response = await post(payload, type);
      expect([payload.slice(0, 40), response.statusCode >= 400 && response.statusCode < 500]).toEqual([payload.slice(0, 40), true]);
      expect(response.json().success).toBe(false);
    }
  });

  it('refuses odd tenantId headers with 400, never a 5xx', async () => {
    for (const tenantId of ['abc', '-1', '1e3', '2147483648', '99999999999', ' ']) {
      const response = await ctx.app.inject({ method: 'GET', url: '/oauth/checkCode', headers: { tenantId } });
      expect([tenantId, response.statusCode]).toEqual([tenantId, 400]);
    }
  });
});
