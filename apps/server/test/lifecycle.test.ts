/**
 * Production lifecycle over HTTP: /healthz and /readyz, Fastify's real client-error
 * statuses in the envelope, and DEMO=off registering no demo route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlersFinished } from '../src/http/health-plugin.js';
import { call, createTestContext, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('lifecycle', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext(); });
  afterAll(async () => { await ctx?.close(); });

  it('answers /healthz always and /readyz only once the broker is up and until shutdown begins', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const notYet = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect([notYet.statusCode, notYet.json().checks]).toEqual([503, { database: true, migrations: true, broker: false, stopping: false }]);
    ctx.app.lifecycle.brokerReady = () => true;
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    ctx.app.lifecycle.stopping = true;
    expect((await ctx.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    ctx.app.lifecycle.stopping = false;
  });

  it('keeps Fastify\'s own client-error statuses (413, 415) with their codes', async () => {
    const tooLarge = await ctx.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/json' }, payload: `{"x":"${'a'.repeat(1_100_000)}"}` });
    expect([tooLarge.statusCode, tooLarge.json().code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const unsupported = await ctx.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect([unsupported.statusCode, unsupported.json().code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const badJson = await ctx.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/json' }, payload: '{' });
    expect([badJson.statusCode, badJson.json().code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('sheds load with 503 UNAVAILABLE while the event loop is saturated, but still answers /healthz', async () => {
    const shedding = await createTestContext({ MAX_EVENT_LOOP_DELAY_MS: 200 }, 0);
    try {
      // A saturated event loop for more than two 1 s samples: blocked 300 ms at a time.
      for (const end = Date.now() + 2500; Date.now() < end;) {
        const blockEnd = Date.now() + 300;
        while (Date.now() < blockEnd) { /* busy */ }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const refused = await shedding.app.inject({ method: 'GET', url: '/oauth/key' });
      expect([refused.statusCode, refused.json().code, refused.headers['retry-after']]).toEqual([503, 'UNAVAILABLE', '5']);
      expect((await shedding.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await shedding.close();
    }
  });

  it('registers the simulated keypad route with DEMO=on only', async () => {
    const demoRoute = (context: TestContext) => context.app.routeTable.some((route) => route.url === '/iot/v1/simulator/attemptOpen');
    expect(demoRoute(ctx)).toBe(true);
    const production = await createTestContext({ DEMO: false }, 0);
    try {
      expect(demoRoute(production)).toBe(false);
      const response = await production.app.inject({ method: 'POST', url: '/iot/v1/simulator/attemptOpen', payload: {} });
      expect(response.statusCode).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe.skipIf(skipSuite)('graceful shutdown', () => {
  it('waits for a handler whose client has gone before the database may close', async () => {
    const context = await createTestContext({}, 0);
    try {
      const admin = await signIn(context.app);
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => { release = resolve; });
      // A slow read: the handler is still inside the database when the shutdown begins.
      const original = context.database.readTenant;
      context.database.readTenant = async (tenantId, fn) => { await gate; return original(tenantId, fn); };
      const pending = call(context.app, admin, { method: 'GET', url: '/iot/v1/lockDevice/list?pageNum=1&pageSize=5' });
      // The request reaches the handler (signature, principal, validation) then waits at the gate; on a loaded machine that takes a while.
      await expect.poll(() => context.app.lifecycle.handlersRunning, { timeout: 10_000, interval: 20 }).toBe(1);
      expect(await handlersFinished(context.app, 50)).toBe(false);
      release();
      expect(await handlersFinished(context.app, 5_000)).toBe(true);
      expect((await pending).statusCode).toBe(200);
    } finally {
      await context.close();
    }
  });
});
