/**
 * Single sign-on on PGlite and PostgreSQL against a real OpenID provider started in the
 * test (oidc-provider-support.ts): authorization code with PKCE, the account created at the first
 * sign-in with the roles the data centres' rules give its groups, reused (and its roles brought up to
 * date) at the next, refused when no rule matches, when the state or the transaction is wrong and when
 * a code is used twice; sign-in history method `sso`; the provider's sign-out URL; the rules' routes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRole, call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, startProvider, type TestProvider } from './oidc-provider-support.js';

describe.skipIf(skipSuite)('single sign-on', () => {
  const people: Record<string, Record<string, unknown>> = {
    alice: { preferred_username: 'alice.sso', email: 'alice@example.com', groups: ['lock-viewers', 'staff'] },
    bob: { preferred_username: 'bob.sso', groups: ['nobody-maps-this'] },
    mallory: { preferred_username: 'admin', groups: ['staff'] },
  };
  let idp: TestProvider;
  let ctx: TestContext;
  let admin: string;
  let viewerRole: number;
  let southRole: number;
  beforeAll(async () => {
    idp = await startProvider(people);
    ctx = await createTestContext({
      OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_REDIRECT_URI: REDIRECT_URI,
      OIDC_DISPLAY_NAME: 'Keycloak', OIDC_SCOPES: 'openid profile email groups',
    }, 0);
    admin = await signIn(ctx.app);
    viewerRole = await addRole(ctx.app, admin, 'sso-viewer', ['LOOK_INFO']);
    southRole = await addRole(ctx.app, admin, 'sso-south', ['LOOK_INFO'], 101);
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule', payload: { claim: 'groups', value: 'lock-viewers', roleIds: [viewerRole] } }));
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule', tenantId: 101, payload: { claim: 'groups', value: 'staff', roleIds: [southRole] } }));
  });
  afterAll(async () => {
    await ctx?.close();
    await idp?.close();
  });

  const start = async () => dataOf(await ctx.app.inject({ method: 'POST', url: '/oauth/sso/start', headers: { tenantId: '100' } })) as { url: string; transaction: string };
  const callback = (transaction: string, query: string) =>
    ctx.app.inject({ method: 'POST', url: '/oauth/sso/callback', remoteAddress: '10.1.1.1', payload: { transaction, callback: query } });
  /** A whole sign-in of `login`; the callback's response. */
  const ssoSignIn = async (login: string) => {
    const { url, transaction } = await start();
    return callback(transaction, await idp.signInAt(url, login));
  };
  const accountNamed = async (username: string) =>
    (await rowsOf<{ id: number }>(ctx.database.system.execute(sql`select id from accounts where username = ${username}`)))[0];

  it('says whether it is on and under which name', async () => {
    expect(dataOf(await ctx.app.inject({ method: 'GET', url: '/oauth/sso' }))).toEqual({ enabled: true, displayName: 'Keycloak', passwordSignIn: true });
  });

  it('starts with PKCE (S256), state and nonce at the issuer\'s authorization endpoint', async () => {
    const url = new URL((await start()).url);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['code_challenge', 'state', 'nonce']) expect(url.searchParams.get(name)).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
  });

  it('creates the account at the first sign-in with the roles its groups map to, in every data centre with a rule', async () => {
    const response = await ssoSignIn('alice');
    const token = dataOf(response).access_token as string;
    const info = dataOf(await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' }));
    expect(info.username).toBe('alice.sso');
    expect(info.type).toBe(1);
    expect(info.authorities).toContain('LOOK_INFO');
    expect(info.tenants.map((tenant: { id: number }) => tenant.id)).toEqual([100, 101]);
    const history = dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/signIn/history' }));
    expect(history.records.map((row: { method: string; result: string; clientIp: string }) => [row.method, row.result, row.clientIp]))
      .toEqual([['sso', 'success', '10.1.1.1']]);
    const logged = await rowsOf<{ action: string; result: string }>(ctx.database.system.execute(
      sql`select action, result from audit_log where username = 'alice.sso' order by id`));
    expect(logged).toEqual([{ action: 'sign-in', result: 'success' }]);
  });

  it('reuses the account at the next sign-in and brings its roles up to date with the rules', async () => {
    const { id } = (await accountNamed('alice.sso')) ?? { id: 0 };
    people.alice = { ...people.alice, groups: ['staff'] }; // no longer a lock viewer in 100
    const token = dataOf(await ssoSignIn('alice')).access_token as string;
    expect((await accountNamed('alice.sso'))?.id).toBe(id);
    const info = dataOf(await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo', tenantId: 101 }));
    expect(info.tenants.map((tenant: { id: number }) => tenant.id)).toEqual([101]);
    expect((await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo', tenantId: 100 })).json().code).toBe('FORBIDDEN');
  });

  it('refuses a person no rule matches, creating nothing', async () => {
    const response = await ssoSignIn('bob');
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('SSO_NO_RULE');
    expect(await accountNamed('bob.sso')).toBeUndefined();
  });

  it('never takes over an existing account by name: a provider user called admin gets an account of its own', async () => {
    const token = dataOf(await ssoSignIn('mallory')).access_token as string;
    const info = dataOf(await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo', tenantId: 101 }));
    expect(info.username).toMatch(/^admin-[0-9a-f]{6}$/);
    expect(info.type).toBe(1);
  });

  it('refuses a wrong state, a forged or foreign transaction and a code used twice', async () => {
    const first = await start();
    const query = await idp.signInAt(first.url, 'alice');
    const wrongState = new URLSearchParams(query);
    wrongState.set('state', 'not-the-state-we-sent');
    expect((await callback(first.transaction, `?${wrongState}`)).json().code).toBe('SSO_FAILED');
    expect((await callback('v1.forged', query)).json().code).toBe('SSO_FAILED');
    // Another sign-in's transaction: its state (and PKCE verifier) do not belong to this code.
    expect((await callback((await start()).transaction, query)).json().code).toBe('SSO_FAILED');
    const second = await start();
    const good = await idp.signInAt(second.url, 'alice');
    expect((await callback(second.transaction, good)).statusCode).toBe(200);
    const replay = await callback(second.transaction, good);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('SSO_FAILED');
    expect((await callback(first.transaction, '?error=access_denied&state=x')).json().code).toBe('SSO_FAILED');
  });

  it('gives an SSO session the provider\'s sign-out URL, and a password session none', async () => {
    const token = dataOf(await ssoSignIn('alice')).access_token as string;
    const url = new URL(dataOf(await call(ctx.app, token, { method: 'GET', url: '/oauth/sso/logoutUrl', tenantId: 101 })).url);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(REDIRECT_URI);
    expect(dataOf(await call(ctx.app, admin, { method: 'GET', url: '/oauth/sso/logoutUrl' })).url).toBeNull();
  });

  it('keeps rules per data centre: roles of the data centre only, no escalation, delete', async () => {
    const rules = dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/sso/rule/list' }));
    expect(rules).toMatchObject([{ claim: 'groups', value: 'lock-viewers', roles: [{ id: viewerRole, name: 'sso-viewer' }] }]);
    const foreign = await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule', payload: { claim: 'groups', value: 'x', roleIds: [southRole] } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors[0].field).toBe('body.roleIds');
    const bad = await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule', payload: { claim: 'a b', value: '', roleIds: [] } });
    expect(bad.json().errors.map((error: { field: string }) => error.field).sort()).toEqual(['body.claim', 'body.roleIds', 'body.value']);
    const deleted = await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule/delete', payload: { id: rules[0].id } });
    expect(dataOf(deleted)).toBeNull();
    expect(dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/sso/rule/list' }))).toEqual([]);
    // 101's rule is not 100's to delete.
    const south = dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/sso/rule/list', tenantId: 101 }));
    expect((await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule/delete', payload: { id: south[0].id } })).json().code).toBe('NOT_FOUND');
  });
});
