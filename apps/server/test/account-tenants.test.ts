/**
 * 新增账号 sets the new account's data centres too, on PGlite and PostgreSQL: the account
 * works in each at once; a data centre the caller may not use is a 400 on body.tenantIds, one where a
 * non-administrator lacks LOGIN_ACCOUNT is ESCALATION; nothing is left behind by a refusal; the system
 * log names the data centres.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountTenants } from '../src/db/schema.js';
import { call, createTestContext, dataOf, encryptPassword, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('data centres of a new account', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 0);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const add = async (token: string, username: string, tenantIds: unknown, tenantId = 100) => call(ctx.app, token, {
    method: 'POST', url: '/v1/account/add/user', tenantId, payload: { username, ...(await encryptPassword(ctx.app, `${username}-password-1`)), tenantIds },
  });
  const listed = async (username: string) => dataOf(await call(ctx.app, admin, { method: 'GET', url: `/v1/account/queryAll?keyword=${username}` })).records;

  it('creates the account in this data centre and the chosen others, where it signs in and works at once', async () => {
    const id = dataOf(await add(admin, 'gina', [101, 100, 101])).id;
    expect((await listed('gina'))[0].tenants.map((tenant: { id: number }) => tenant.id)).toEqual([100, 101]);
    const gina = await signIn(ctx.app, 'gina', 'gina-password-1');
    expect(dataOf(await call(ctx.app, gina, { method: 'GET', url: '/oauth/userInfo', tenantId: 101 })).tenants.map((t: { id: number }) => t.id)).toEqual([100, 101]);
    const log = dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/SysOperateLog/getLogList?current=1&size=5&action=POST /v1/account/add/user' })).records;
    expect(log.find((row: { target: string }) => row.target === 'gina')?.detail).toMatchObject({ tenantIds: [101, 100, 101] });
    expect((await ctx.database.system.select().from(accountTenants).where(eq(accountTenants.accountId, id))).length).toBe(2);
  });

  it('refuses a data centre the caller cannot use, and leaves nothing behind', async () => {
    const refused = await add(admin, 'hank', [999]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].field).toBe('body.tenantIds');
    expect(await listed('hank')).toEqual([]);
    expect((await add(admin, 'hank', ['x'])).statusCode).toBe(400);
  });

  it('lets a non-administrator add accounts only in data centres where it manages accounts', async () => {
    const manager = await operatorWith(ctx.app, admin, 'manager', ['LOGIN_ACCOUNT']);
    const notMember = await add(manager.token, 'ivy', [101]);
    expect([notMember.statusCode, notMember.json().errors?.[0]?.field]).toEqual([400, 'body.tenantIds']);
    await ctx.database.system.insert(accountTenants).values({ accountId: manager.id, tenantId: 101 }); // a member of 101, without LOGIN_ACCOUNT there
    const escalation = await add(manager.token, 'ivy', [101]);
    expect([escalation.statusCode, escalation.json().code]).toEqual([403, 'ESCALATION']);
    expect(await listed('ivy')).toEqual([]);
    expect(dataOf(await add(manager.token, 'ivy', [])).id).toBeGreaterThan(0);
  });
});
