/**
 * API documentation: /openapi.json is OpenAPI 3.1 with every registered route, each
 * operation naming its authority, its parameters and schemas and both headers, and carrying its
 * contract endpoint's name as operationId; /docs serves the reference under its own strict
 * script policy.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('API documentation', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({}, 0); });
  afterAll(async () => { await ctx?.close(); });

  it('documents every registered route with its authority, inputs, envelope and headers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const registered = ctx.app.routeTable.filter((route) => route.method !== 'HEAD').map((route) => `${route.method} ${route.url}`);
    expect(registered.filter((route) => !documented.includes(route))).toEqual([]);
    expect(document.components.securitySchemes).toMatchObject({ zw_paas_token: { in: 'header' }, tenantId: { in: 'header' }, apiKey: { type: 'http', scheme: 'bearer' } });

    const list = document.paths['/iot/v1/lockDevice/list'].get;
    expect(list['x-authority']).toEqual(['LOOK_INFO']);
    // The token and data centre, or an API key, which keys may not use for people-only routes.
    expect(list.security).toEqual([{ zw_paas_token: [], tenantId: [] }, { apiKey: [] }]);
    expect(document.paths['/iot/v1/apiKey'].post.security).toEqual([{ zw_paas_token: [], tenantId: [] }]);
    expect(document.paths['/oauth/userInfo'].get.security).toEqual([{ zw_paas_token: [], tenantId: [] }]);
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['current', 'size', 'keyword']));
    const ok = list.responses['200'].content['application/json'].schema;
    expect(ok.properties.data.properties.records.type).toBe('array');
    expect(list.responses['403'].content['application/json'].schema.properties.code.enum).toEqual(expect.arrayContaining(['TOKEN_EXPIRED', 'FORBIDDEN']));
    const signIn = document.paths['/oauth/token'].post;
    expect([signIn['x-authority'], signIn.security]).toEqual(['public', []]);
    expect(signIn.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['username', 'password']));
  });

  it('names every operation after its contract endpoint: present, unique, and stable (openapi-operations.txt)', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.entries(document.paths as Record<string, Record<string, { operationId?: string; tags?: string[] }>>)
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, ...operation })));
    expect(operations.filter((operation) => !operation.operationId).map((operation) => operation.route)).toEqual([]);
    const ids = operations.map((operation) => operation.operationId as string);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    for (const operation of operations) expect(operation.tags).toEqual([operation.operationId?.split('.')[0]]);
    expect(document.paths['/iot/v1/lockDevice/list'].get.operationId).toBe('lock.list');
    // A renamed or removed operation breaks customers' generated SDKs: every line of the kept list must
    // still hold. New operations may be added to it (UPDATE_OPERATIONS=1 rewrites it from the document).
    const list = operations.map((operation) => `${operation.operationId} ${operation.route}`).sort();
    const file = join(import.meta.dirname, 'openapi-operations.txt');
    if (process.env.UPDATE_OPERATIONS === '1') writeFileSync(file, `${list.join('\n')}\n`);
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean).filter((line) => !list.includes(line))).toEqual([]);
  });

  it('serves the reference with a script policy that allows only its own inline start-up script', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    const inline = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '';
    const hash = createHash('sha256').update(inline).digest('base64');
    expect(page.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(page.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect((await ctx.app.inject({ method: 'GET', url: '/docs/js/scalar.js' })).statusCode).toBe(200);
  });
});
