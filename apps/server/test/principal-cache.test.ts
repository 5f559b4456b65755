/**
 * The principal cache (modules/oauth/principal-cache.ts): a token seen once is answered
 * from memory; a sign-out or a removed authority is refused on the very next request of the instance
 * that made the change, and, through NOTIFY, soon on another instance (api-postgres: a second app
 * with its own connections on the same database, its cache lifetime raised to 60 s so that only
 * the event can explain the refusal; api-pglite: a second app on the same handle).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createPrincipalCache } from '../src/modules/oauth/principal-cache.js';
import { call, createTestContext, dataOf, operatorWith, rowsOf, secondInstance, signIn, skipSuite, type TestContext } from './helper.js';

const LOCK_LIST = '/iot/v1/lockDevice/list?pageNum=1&pageSize=5';

/** Polls `request` until it answers `status` (deadline 15 s: a loaded machine); returns the ms it took. */
async function untilStatus(request: () => Promise<{ statusCode: number }>, status: number): Promise<number> {
  const started = Date.now();
  while ((await request()).statusCode !== status) {
    if (Date.now() - started > 15_000) throw new Error(`no ${status} within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe.skipIf(skipSuite)('principal cache', () => {
  /** The sign-in family of `token` (its session row). */
  const familyOf = async (token: string) => {
    const hash = createHash('sha256').update(token).digest('hex');
    return (await rowsOf<{ family: string }>(ctx.database.system.execute(sql`select family from sessions where token_hash = ${hash}`)))[0]?.family ?? '';
  };
  let ctx: TestContext;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  let admin: string;

  beforeAll(async () => {
    ctx = await createTestContext({}, 3);
    other = await secondInstance(ctx, { PRINCIPAL_CACHE_MS: 60_000 });
    admin = await signIn(ctx.app);
  });
  afterAll(async () => {
    await other?.close();
    await ctx?.close();
  });

  it('answers a known token from memory', async () => {
    const token = await signIn(ctx.app);
    dataOf(await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' }));
    const before = ctx.app.principals.stats();
    for (let i = 0; i < 5; i++) dataOf(await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' }));
    const after = ctx.app.principals.stats();
    expect(after.hits - before.hits).toBe(5);
    expect(after.misses).toBe(before.misses);
  });

  it('refuses a signed-out token on the next request here, and soon on another instance', async () => {
    const token = await signIn(ctx.app);
    dataOf(await call(other.app, token, { method: 'GET', url: '/oauth/userInfo' })); // cached there
    dataOf(await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' }));
    dataOf(await call(ctx.app, token, { method: 'POST', url: '/oauth/logout' }));
    expect((await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' })).json().code).toBe('TOKEN_EXPIRED');
    const ms = await untilStatus(() => call(other.app, token, { method: 'GET', url: '/oauth/userInfo' }), 403);
    console.info(`[principal cache] sign-out refused on the other instance after ${ms} ms`);
  });

  it('refuses a removed authority on the next request here, and soon on another instance', async () => {
    const operator = await operatorWith(ctx.app, admin, 'cache-operator', ['LOOK_INFO']);
    expect((await call(ctx.app, operator.token, { method: 'GET', url: LOCK_LIST })).statusCode).toBe(200);
    expect((await call(other.app, operator.token, { method: 'GET', url: LOCK_LIST })).statusCode).toBe(200);
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/update', payload: { id: operator.roleId, name: 'cache-operator-role', description: '', authorities: ['HOME_PAGE'] } }));
    expect((await call(ctx.app, operator.token, { method: 'GET', url: LOCK_LIST })).statusCode).toBe(403);
    const ms = await untilStatus(() => call(other.app, operator.token, { method: 'GET', url: LOCK_LIST }), 403);
    console.info(`[principal cache] removed authority refused on the other instance after ${ms} ms`);
    // Given back: allowed again at once here (the role's change emptied the data centre's entries).
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/update', payload: { id: operator.roleId, name: 'cache-operator-role', description: '', authorities: ['LOOK_INFO'] } }));
    expect((await call(ctx.app, operator.token, { method: 'GET', url: LOCK_LIST })).statusCode).toBe(200);
  });

  it('writes idle-expiry touches in batches, not per request', async () => {
    const token = await signIn(ctx.app);
    const family = await familyOf(token);
    await ctx.database.system.execute(sql`update sessions set last_used_at = now() - interval '1 minute' where family = ${family}`);
    const lastUsed = async () => (await rowsOf<{ t: string }>(ctx.database.system.execute(sql`select last_used_at::text as t from sessions where family = ${family}`)))[0]?.t;
    const before = await lastUsed();
    const cache = createPrincipalCache(ctx.database, { idleS: 1800, absoluteS: 43_200, rotateS: 3600 }, { touchFlushMs: 600_000, log: { warn() {} } });
    for (let i = 0; i < 20; i++) expect(await cache.verify(token, 100)).toBeDefined();
    expect(await lastUsed()).toBe(before); // 20 uses, nothing written yet
    await cache.close(); // the batch: one statement for every session due
    expect(await lastUsed()).not.toBe(before);
    expect(cache.stats()).toMatchObject({ misses: 1, hits: 19, touchesWritten: 1 });
  });
});
