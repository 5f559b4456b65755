/**
 * No escalation and last-administrator protection on PGlite and PostgreSQL: a
 * non-administrator grants, binds and manages only what it holds; nobody binds their own roles,
 * deletes or disables themselves or the last enabled administrator.
 */
import { ACCOUNT_TYPE_ADMIN } from '@iot/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../src/db/schema.js';
import { hashPassword } from '../src/modules/oauth/passwords.js';
import { call, createTestContext, dataOf, encryptPassword, operatorWith, signIn, skipSuite, tableChecksum, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('no escalation', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 0);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const post = (token: string, url: string, payload: object, tenantId = 100) => call(ctx.app, token, { method: 'POST', url, payload, tenantId });
  const get = (token: string, url: string, tenantId = 100) => call(ctx.app, token, { method: 'GET', url, tenantId });
  const accountRow = async (id: number) => (await ctx.database.system.select().from(accounts).where(eq(accounts.id, id)))[0];
  const newPassword = (password: string) => encryptPassword(ctx.app, password);
  const accountRowByName = async (username: string) => {
    const [row] = await ctx.database.system.select().from(accounts).where(eq(accounts.username, username));
    if (!row) throw new Error(`no account ${username}`);
    return row;
  };

  it('never lets a non-administrator grant, bind or manage more than it holds', async () => {
    const mgr = await operatorWith(ctx.app, admin, 'mgr', ['USER_MANAGEMENTTOP', 'LOGIN_ACCOUNT', 'ROLE_PERMISSIONS', 'BINDING_ROLES', 'HOME_PAGE']);
    const weak = await operatorWith(ctx.app, admin, 'weak', ['HOME_PAGE']);
    const strong = await operatorWith(ctx.app, admin, 'strong', ['SYSTEM_LOG']);
    const adminRow = await accountRowByName('admin');
    const snapshot = () => tableChecksum(ctx.database, ['roles', 'accounts', 'account_roles', 'account_tenants']);
    const before = await snapshot();
    const refusals: [string, object][] = [
      ['/v1/sysRole/add', { name: 'sneaky', authorities: ['SYSTEM_LOG'] }],
      ['/v1/sysRole/update', { id: strong.roleId, name: 'strong-role', authorities: ['HOME_PAGE'] }],
      ['/v1/sysRole/update', { id: mgr.roleId, name: 'mgr-role', authorities: ['LOGIN_ACCOUNT', 'SYSTEM_LOG'] }],
      ['/v1/sysRole/delete', { id: strong.roleId }],
      ['/v1/sysUserRole/bind', { accountId: weak.id, roleIds: [strong.roleId] }],
      ['/v1/sysUserRole/bind', { accountId: strong.id, roleIds: [] }],
      ['/v1/account/edit/password', { id: adminRow.id, ...(await encryptPassword(ctx.app, 'taken-over-1')) }],
      ['/v1/account/edit/password', { id: strong.id, ...(await encryptPassword(ctx.app, 'taken-over-1')) }],
      ['/v1/account/enable', { id: adminRow.id, enabled: false }],
      ['/v1/account/enable', { id: strong.id, enabled: false }],
      ['/v1/account/delete/user', { id: adminRow.id }],
    ];
    for (const [url, body] of refusals) {
      const response = await post(mgr.token, url, body);
      expect([url, response.statusCode, response.json().code]).toEqual([url, 403, 'ESCALATION']);
    }
    const self = await post(mgr.token, '/v1/sysUserRole/bind', { accountId: mgr.id, roleIds: [mgr.roleId, strong.roleId] });
    expect(self.json().code).toBe('SELF_ACTION');
    expect(await snapshot()).toEqual(before);
    const mine = dataOf(await post(mgr.token, '/v1/sysRole/add', { name: 'home-only', authorities: ['HOME_PAGE'] })).id;
    dataOf(await post(mgr.token, '/v1/sysUserRole/bind', { accountId: weak.id, roleIds: [mine] }));
    dataOf(await post(mgr.token, '/v1/account/edit/password', { id: weak.id, ...(await newPassword('weak-password-2')) }));
    expect(await signIn(ctx.app, 'weak', 'weak-password-2')).toBeTruthy();
    // A role without authorities opens no business route; switching the method gets around nothing.
    const empty = await operatorWith(ctx.app, admin, 'empty', []);
    for (const url of ['/iot/v1/lockDevice/list', '/v1/account/queryAll', '/v1/sysRole/queryAll', '/iot/v1/SysOperateLog/getLogList']) {
      expect((await get(empty.token, url)).json().code).toBe('FORBIDDEN');
    }
    expect((await post(empty.token, '/v1/sysRole/add', { name: 'e', authorities: [] })).json().code).toBe('FORBIDDEN');
    expect((await get(admin, '/v1/sysRole/add')).statusCode).toBe(404);
    expect((await post(admin, '/v1/sysRole/queryAll', {})).statusCode).toBe(404);
    // BINDING_ROLES alone lists accounts (the binding page needs them) but manages none.
    const binder = await operatorWith(ctx.app, admin, 'binder', ['BINDING_ROLES']);
    expect((await get(binder.token, '/v1/account/queryAll')).statusCode).toBe(200);
    expect((await post(binder.token, '/v1/account/enable', { id: weak.id, enabled: false })).json().code).toBe('FORBIDDEN');
  });

  it('protects the last enabled administrator and refuses self-deletion and self-disabling', async () => {
    const me = await accountRowByName('admin');
    for (const [url, body] of [['/v1/account/delete/user', { id: me.id }], ['/v1/account/enable', { id: me.id, enabled: false }]] as const) {
      const response = await post(admin, url, body);
      expect([response.statusCode, response.json().code]).toEqual([409, 'LAST_ADMIN']);
    }
    const [second] = await ctx.database.system.insert(accounts)
      .values({ username: 'admin2', passwordHash: await hashPassword('admin2-password'), type: ACCOUNT_TYPE_ADMIN, homeTenantId: 100 }).returning();
    if (!second) throw new Error('admin2 not inserted');
    expect((await post(admin, '/v1/account/delete/user', { id: me.id })).json().code).toBe('SELF_ACTION');
    expect((await post(admin, '/v1/account/enable', { id: me.id, enabled: false })).json().code).toBe('SELF_ACTION');
    dataOf(await post(admin, '/v1/account/enable', { id: second.id, enabled: false }));
    expect((await post(admin, '/v1/account/delete/user', { id: me.id })).json().code).toBe('LAST_ADMIN');
    dataOf(await post(admin, '/v1/account/enable', { id: second.id, enabled: true }));
    dataOf(await post(admin, '/v1/account/delete/user', { id: second.id }));
    expect(await accountRow(second.id)).toBeUndefined();
    expect((await accountRow(me.id))?.enabled).toBe(true);
  });
});
