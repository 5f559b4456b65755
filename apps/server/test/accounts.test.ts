/**
 * Login accounts, roles and role bindings on PGlite and PostgreSQL: every route, tenant
 * isolation, mass assignment, token revocation, no escalation, last-administrator protection.
 */
import { ACCOUNT_TYPE_ADMIN, SIGN_OUT_REASONS } from '@iot/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountRoles, accountTenants, accounts, roles } from '../src/db/schema.js';
import {
  ADMIN_PASSWORD, addAccount, addRole, bindRoles, call, createTestContext, dataOf, encryptPassword, OPERATOR_PASSWORD, rowsOf, signIn, signInResponse, skipSuite, type TestContext,
} from './helper.js';

describe.skipIf(skipSuite)('accounts, roles and bindings', () => {
  let ctx: TestContext;
  let admin: string;
  const passwords = [ADMIN_PASSWORD, OPERATOR_PASSWORD];
  beforeAll(async () => {
    ctx = await createTestContext({}, 0);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const post = (token: string, url: string, payload: object, tenantId = 100) => call(ctx.app, token, { method: 'POST', url, payload, tenantId });
  const get = (token: string, url: string, tenantId = 100) => call(ctx.app, token, { method: 'GET', url, tenantId });
  const userInfo = (token: string) => get(token, '/oauth/userInfo');
  const accountRow = async (id: number) => (await ctx.database.system.select().from(accounts).where(eq(accounts.id, id)))[0];
  const newPassword = async (password: string) => { passwords.push(password); return encryptPassword(ctx.app, password); };
  const accountRowByName = async (username: string) => {
    const [row] = await ctx.database.system.select().from(accounts).where(eq(accounts.username, username));
    if (!row) throw new Error(`no account ${username}`);
    return row;
  };

  it('revokes live tokens at once on a password or enabled-state change', async () => {
    const carol = await addAccount(ctx.app, admin, 'carol', 'carol-password-1');
    let token = await signIn(ctx.app, 'carol', 'carol-password-1');
    dataOf(await post(admin, '/v1/account/edit/password', { id: carol, ...(await newPassword('carol-password-2')) }));
    expect((await userInfo(token)).json().code).toBe('TOKEN_EXPIRED');
    expect((await userInfo(token)).json().message).toBe(SIGN_OUT_REASONS.passwordChanged['zh-CN']); // says why
    expect((await signInResponse(ctx.app, 'carol', 'carol-password-1')).statusCode).toBe(401);
    token = await signIn(ctx.app, 'carol', 'carol-password-2');
    dataOf(await post(admin, '/v1/account/enable', { id: carol, enabled: false }));
    expect((await userInfo(token)).json().code).toBe('TOKEN_EXPIRED');
    expect((await userInfo(token)).json().message).toBe(SIGN_OUT_REASONS.disabled['zh-CN']);
    expect((await signInResponse(ctx.app, 'carol', 'carol-password-2')).json().code).toBe('ACCOUNT_DISABLED');
    dataOf(await post(admin, '/v1/account/enable', { id: carol, enabled: true }));
    expect(dataOf(await get(admin, '/v1/account/queryAll?keyword=carol')).records[0].enabled).toBe(true);
    expect(await signIn(ctx.app, 'carol', 'carol-password-2')).toBeTruthy();
  });

  it('creates an operator with an encrypted password, lists it without the hash, and confines it to its tenant', async () => {
    const id = dataOf(await post(admin, '/v1/account/add/user', { username: 'alice', ...(await newPassword('alice-password-1')) })).id;
    const page = dataOf(await get(admin, '/v1/account/queryAll?keyword=ALI'));
    expect(page.total).toBe(1);
    expect(page.records[0]).toEqual({
      id, username: 'alice', type: 1, enabled: true, homeTenantId: 100, tenants: [{ id: 100, name: expect.any(String) }], roles: [], twoFactorEnabled: false,
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(JSON.stringify(page)).not.toMatch(/argon2|passwordHash/);
    expect(await signIn(ctx.app, 'alice', 'alice-password-1')).toBeTruthy();
    const duplicate = await post(admin, '/v1/account/add/user', { username: 'alice', ...(await encryptPassword(ctx.app, 'another-password')) });
    expect([duplicate.statusCode, duplicate.json().code]).toEqual([409, 'CONFLICT']);
    const plain = await post(admin, '/v1/account/add/user', { username: 'bob', password: 'bob-password-1', keyId: (await encryptPassword(ctx.app, 'x')).keyId });
    expect([plain.statusCode, plain.json().errors[0].field]).toEqual([400, 'body.password']);
    const short = await post(admin, '/v1/account/add/user', { username: 'bob', ...(await encryptPassword(ctx.app, 'short')) });
    expect([short.statusCode, short.json().errors[0].field]).toEqual([400, 'body.password']);
    const staleKey = await post(admin, '/v1/account/add/user', { username: 'bob', password: 'AAAA', keyId: 'gone' });
    expect([staleKey.statusCode, staleKey.json().code]).toEqual([400, 'KEY_EXPIRED']);
    const badName = await post(admin, '/v1/account/add/user', { username: 'a b', ...(await encryptPassword(ctx.app, 'bob-password-1')) });
    expect([badName.statusCode, badName.json().errors[0].field]).toEqual([400, 'body.username']);
    // Tenant 101 neither sees nor touches tenant 100's account.
    expect(dataOf(await get(admin, '/v1/account/queryAll?size=500', 101)).records.map((r: { username: string }) => r.username)).not.toContain('alice');
    for (const [url, body] of [
      ['/v1/account/delete/user', { id }], ['/v1/account/enable', { id, enabled: false }],
      ['/v1/account/edit/password', { id, ...(await encryptPassword(ctx.app, 'alice-password-2')) }],
      ['/v1/sysUserRole/bind', { accountId: id, roleIds: [] }],
    ] as const) {
      const response = await post(admin, url, body, 101);
      expect([url, response.statusCode, response.json().code]).toEqual([url, 404, 'NOT_FOUND']);
    }
    expect((await get(admin, `/v1/account/queryRoles?accountId=${id}`, 101)).statusCode).toBe(404);
    expect(await accountRow(id)).toMatchObject({ enabled: true, username: 'alice' });
  });

  it('refuses fields a caller may not set, leaving the database unchanged', async () => {
    const before = await ctx.database.system.select().from(accounts);
    for (const extra of [{ type: 0 }, { tenantId: 101 }, { passwordHash: 'x' }, { id: 4242 }, { enabled: false }]) {
      const response = await post(admin, '/v1/account/add/user', { username: 'mallory', ...(await encryptPassword(ctx.app, 'mallory-pass-1')), ...extra });
      expect([response.statusCode, response.json().code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const alice = before.find((row) => row.username === 'alice');
    expect((await post(admin, '/v1/account/enable', { id: alice?.id, enabled: true, type: 0 })).statusCode).toBe(400);
    expect((await post(admin, '/v1/sysRole/add', { name: 'x', authorities: [], tenantId: 101 })).statusCode).toBe(400);
    expect(await ctx.database.system.select().from(accounts)).toEqual(before);
    // Row-level security refuses an administrator created inside a tenant transaction, whatever the code does.
    await expect(ctx.database.withTenant(100, (tx) => tx.insert(accounts).values({ username: 'root2', passwordHash: 'x', type: ACCOUNT_TYPE_ADMIN, homeTenantId: 100 })))
      .rejects.toThrow();
  });

  it('adds, lists, updates and deletes roles per tenant, validating authority keys', async () => {
    const id = await addRole(ctx.app, admin, 'auditor', ['SYSTEM_LOG', 'LOG_MANAGEMENT', 'SYSTEM_LOG']);
    const listed = dataOf(await get(admin, '/v1/sysRole/queryAll?keyword=audit')).records;
    expect(listed).toEqual([{ id, name: 'auditor', description: '', authorities: ['SYSTEM_LOG', 'LOG_MANAGEMENT'], requiresTwoFactor: false, accountCount: 0, createdAt: expect.stringMatching(/Z$/) }]);
    const unknown = await post(admin, '/v1/sysRole/add', { name: 'bad', authorities: ['NOT_A_KEY'] });
    expect([unknown.statusCode, unknown.json().errors[0].field]).toEqual([400, 'body.authorities.0']);
    expect((await post(admin, '/v1/sysRole/add', { name: 'auditor', authorities: [] })).json().code).toBe('CONFLICT');
    dataOf(await post(admin, '/v1/sysRole/update', { id, name: 'auditor2', description: '审计', authorities: ['SYSTEM_LOG'] }));
    expect(dataOf(await get(admin, '/v1/sysRole/queryAll?keyword=审计')).records[0]).toMatchObject({ name: 'auditor2', authorities: ['SYSTEM_LOG'] });
    expect(dataOf(await get(admin, '/v1/sysRole/queryAll?size=500', 101)).records.some((r: { id: number }) => r.id === id)).toBe(false);
    expect((await post(admin, '/v1/sysRole/update', { id, name: 'x', authorities: [] }, 101)).statusCode).toBe(404);
    expect((await post(admin, '/v1/sysRole/delete', { id }, 101)).statusCode).toBe(404);
    expect((await post(admin, '/v1/sysRole/update', { id: 999999, name: 'x', authorities: [] })).statusCode).toBe(404);
    dataOf(await post(admin, '/v1/sysRole/delete', { id }));
    expect(await ctx.database.system.select().from(roles).where(eq(roles.id, id))).toEqual([]);
  });

  it('binds roles in one transaction, refuses roles of another tenant and one\'s own account, and revokes tokens', async () => {
    const bob = await addAccount(ctx.app, admin, 'bob', 'bob-password-1');
    const r1 = await addRole(ctx.app, admin, 'r1', ['HOME_PAGE']);
    const r2 = await addRole(ctx.app, admin, 'r2', ['LOOK_RULE', 'LOOK_INFO']);
    const foreign = await addRole(ctx.app, admin, 'r101', ['SYSTEM_LOG'], 101);
    let token = await signIn(ctx.app, 'bob', 'bob-password-1');
    await bindRoles(ctx.app, admin, bob, [r1]);
    expect((await userInfo(token)).json().code).toBe('TOKEN_EXPIRED');
    expect((await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo', headers: { 'accept-language': 'en-US' } })).json().message).toBe(SIGN_OUT_REASONS.rolesChanged['en-US']);
    token = await signIn(ctx.app, 'bob', 'bob-password-1');
    expect(dataOf(await userInfo(token)).authorities).toEqual(['HOME_PAGE']);
    const crossTenant = await post(admin, '/v1/sysUserRole/bind', { accountId: bob, roleIds: [r2, foreign] });
    expect([crossTenant.statusCode, crossTenant.json().code]).toEqual([404, 'NOT_FOUND']);
    expect((await ctx.database.system.select().from(accountRoles).where(eq(accountRoles.accountId, bob))).map((b) => b.roleId)).toEqual([r1]);
    expect((await userInfo(token)).statusCode).toBe(200);
    await bindRoles(ctx.app, admin, bob, [r2]);
    const choices = dataOf(await get(admin, `/v1/account/queryRoles?accountId=${bob}`));
    expect(choices.bound).toEqual([{ id: r2, name: 'r2' }]);
    expect(choices.roles.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([r1, r2]));
    expect(choices.roles.map((r: { id: number }) => r.id)).not.toContain(foreign);
    expect(dataOf(await get(admin, '/v1/account/queryAll?keyword=bob')).records[0].roles).toEqual([{ id: r2, name: 'r2' }]);
    const self = await post(admin, '/v1/sysUserRole/bind', { accountId: (await accountRowByName('admin')).id, roleIds: [r1] });
    expect([self.statusCode, self.json().code]).toEqual([403, 'SELF_ACTION']);
    expect((await post(admin, '/v1/sysUserRole/bind', { accountId: bob, roleIds: ['x'] })).statusCode).toBe(400);
    expect((await get(admin, '/v1/account/queryRoles?accountId=abc')).statusCode).toBe(400);
  });

  it('removes a shared account from this tenant only, and deletes it with its last tenant', async () => {
    const dave = await addAccount(ctx.app, admin, 'dave', 'dave-password-1');
    const role = await addRole(ctx.app, admin, 'dave-role', ['HOME_PAGE']);
    await bindRoles(ctx.app, admin, dave, [role]);
    await ctx.database.system.insert(accountTenants).values({ accountId: dave, tenantId: 101 });
    dataOf(await post(admin, '/v1/account/delete/user', { id: dave }));
    expect(await accountRow(dave)).toBeDefined();
    expect((await ctx.database.system.select().from(accountTenants).where(eq(accountTenants.accountId, dave))).map((m) => m.tenantId)).toEqual([101]);
    expect(await ctx.database.system.select().from(accountRoles).where(eq(accountRoles.accountId, dave))).toEqual([]);
    expect((await post(admin, '/v1/account/delete/user', { id: dave })).statusCode).toBe(404);
    dataOf(await post(admin, '/v1/account/delete/user', { id: dave }, 101));
    expect(await accountRow(dave)).toBeUndefined();
  });

  it('creates an account with its roles in one step, refusing unknown roles, without rows left behind', async () => {
    const role = await addRole(ctx.app, admin, 'with-new-account', ['HEARTBEAT_LOG']);
    const id = dataOf(await post(admin, '/v1/account/add/user', { username: 'erin', ...(await newPassword('erin-password-1')), roleIds: [role] })).id;
    expect(dataOf(await get(admin, '/v1/account/queryAll?keyword=erin')).records[0]).toMatchObject({ id, roles: [{ id: role, name: 'with-new-account' }] });
    const erin = await signIn(ctx.app, 'erin', 'erin-password-1');
    expect(dataOf(await userInfo(erin)).authorities).toEqual(['HEARTBEAT_LOG']);
    const unknown = await post(admin, '/v1/account/add/user', { username: 'frank', ...(await encryptPassword(ctx.app, 'frank-password-1')), roleIds: [999_999] });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'NOT_FOUND']);
    expect(dataOf(await get(admin, '/v1/account/queryAll?keyword=frank')).total).toBe(0); // one transaction: no account without its roles
  });

  it('sorts accounts and roles on the server as the table asks (sortField, sortOrder), and refuses other fields', async () => {
    for (const name of ['sort-b', 'sort-a', 'sort-c']) await addRole(ctx.app, admin, name, ['SYSTEM_LOG']);
    const names = async (query: string) =>
      dataOf(await get(admin, `/v1/sysRole/queryAll?keyword=sort-&${query}`)).records.map((r: { name: string }) => r.name);
    expect(await names('sortField=name&sortOrder=ascend')).toEqual(['sort-a', 'sort-b', 'sort-c']);
    expect(await names('sortField=name&sortOrder=descend')).toEqual(['sort-c', 'sort-b', 'sort-a']);
    expect(await names('sortField=name')).toEqual(['sort-c', 'sort-b', 'sort-a']);
    expect(await names('')).toEqual(['sort-b', 'sort-a', 'sort-c']);
    const usernames = async (order: string) =>
      dataOf(await get(admin, `/v1/account/queryAll?size=500&sortField=username&sortOrder=${order}`)).records.map((r: { username: string }) => r.username);
    const ascending = await usernames('ascend');
    expect(ascending).toEqual([...ascending].sort());
    expect(await usernames('descend')).toEqual([...ascending].reverse());
    expect((await get(admin, '/v1/account/queryAll?sortField=passwordHash')).statusCode).toBe(400);
    expect((await get(admin, '/v1/sysRole/queryAll?sortField=name&sortOrder=up')).statusCode).toBe(400);
  });

  it('answers malformed input with 400, never 500, and keeps every password out of the system log', async () => {
    for (const [url, body] of [['/v1/account/add/user', {}], ['/v1/account/enable', { id: 'x' }], ['/v1/sysUserRole/bind', { accountId: 1 }],
      ['/v1/sysRole/update', { id: 1 }], ['/v1/account/delete/user', []]] as const) {
      expect([url, (await post(admin, url, body)).statusCode]).toEqual([url, 400]);
    }
    expect((await get(admin, '/v1/account/queryAll?size=0')).statusCode).toBe(400);
    const [log] = await rowsOf<{ text: string }>(ctx.database.system.execute(sql`select string_agg(a::text, E'\n') as text from audit_log a`));
    const text = String(log?.text);
    expect(text).toContain('POST /v1/account/edit/password');
    for (const password of passwords) expect(text).not.toContain(password);
    expect(text).not.toMatch(/password-\d|taken-over|admin2-password|mallory-pass/);
    expect(text).not.toMatch(/keyId|argon2/);
  });
});
