/** Tenant isolation (header check, row-level security) and authority checks, on PGlite and PostgreSQL. */
import { eq, sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { locks, roles } from '../src/db/schema.js';
import { authPlugin } from '../src/http/auth-plugin.js';
import { call, createTestContext, forgetPrincipals, OPERATOR_PASSWORD, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('tenancy and authorities', () => {
  let ctx: TestContext;
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 10);
    admin = await signIn(ctx.app);
    operator = await signIn(ctx.app, 'operator', OPERATOR_PASSWORD);
  });
  afterAll(() => ctx?.close());

  const list = (token: string, tenantId: number) => call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?size=500', tenantId });

  it("never shows tenant 101's locks under tenant 100", async () => {
    const in100 = (await list(admin, 100)).json().data;
    const in101 = (await list(admin, 101)).json().data;
    expect(in100.total).toBe(8);
    expect(in101.total).toBe(2);
    const ids100 = new Set(in100.records.map((r: { imei: string }) => r.imei));
    expect(in101.records.some((r: { imei: string }) => ids100.has(r.imei))).toBe(false);
  });

  it('refuses a tenantId the account may not use with 403 FORBIDDEN, and a malformed one with 400', async () => {
    const foreign = await list(operator, 101);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().code).toBe('FORBIDDEN');
    expect((await list(admin, 999)).json().code).toBe('FORBIDDEN');
    const malformed = await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/lockDevice/list', headers: { tenantId: 'abc' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors[0].field).toBe('headers.tenantId');
  });

  it('confines queries to the tenant through row-level security even without a filter', async () => {
    const seen = await ctx.database.withTenant(101, (tx) => tx.select({ tenantId: locks.tenantId }).from(locks));
    expect(seen.length).toBe(2);
    expect(seen.every((row) => row.tenantId === 101)).toBe(true);
    await expect(ctx.database.withTenant(100, (tx) => tx.update(locks).set({ name: 'x' }).where(eq(locks.tenantId, 101)).returning()))
      .resolves.toEqual([]);
  });

  it("keeps the keyword search's view (lock_search) to the tenant's locks, and read-only", async () => {
    const imei100 = (await list(admin, 100)).json().data.records[0].imei as string;
    const search = (tenantId: number) => call(ctx.app, admin, { method: 'GET', url: `/iot/v1/lockDevice/list?keyword=${imei100.slice(2)}`, tenantId });
    expect((await search(100)).json().data.total).toBe(1);
    expect((await search(101)).json().data.total).toBe(0);
    const viewed = await ctx.database.withTenant(101, (tx) => tx.execute(sql`select l.tenant_id from lock_search s join locks l using (id)`));
    expect(rowsOf<{ tenant_id: number }>(viewed).map((row) => row.tenant_id)).toEqual([101, 101]);
    const noTenant = await ctx.database.system.execute(sql`select count(*)::int as n from lock_search`);
    expect(rowsOf<{ n: number }>(noTenant)[0]?.n).toBe(0); // the owner, without app.tenant_id
    const refused = await ctx.database.withTenant(100, (tx) => tx.execute(sql`update lock_search set name = 'x'`))
      .then(() => 'written', (error: { cause?: { code?: string } }) => error.cause?.code);
    expect(refused).toBe('42501'); // insufficient_privilege
  });

  it('lets the operator use what its role grants and refuses the rest with FORBIDDEN, not TOKEN_EXPIRED', async () => {
    expect((await list(operator, 100)).statusCode).toBe(200);
    const info = (await call(ctx.app, operator, { method: 'GET', url: '/oauth/userInfo' })).json().data;
    expect(info).toMatchObject({ username: 'operator', type: 1, authorities: ['HOME_PAGE', 'LOOK_RULE', 'LOOK_INFO'] });
    expect(info.tenants).toEqual([{ id: 100, name: expect.any(String) }]);
    await ctx.database.system.update(roles).set({ authorities: sql`array['HOME_PAGE']` });
    forgetPrincipals(ctx.app); // written behind the role module: no event
    const denied = await list(operator, 100);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'FORBIDDEN', message: '没有权限' });
    expect((await call(ctx.app, operator, { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(200);
  });

  it('refuses to register a route that declares no authority', async () => {
    const app = Fastify();
    await app.register(authPlugin);
    expect(() => app.get('/undeclared', async () => 'x')).toThrow(/declares no access/);
    await app.close();
  });
});
