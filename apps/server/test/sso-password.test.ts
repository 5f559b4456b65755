/**
 * Password sign-in off per data centre on PGlite and PostgreSQL, with the
 * real provider of oidc-provider-support.ts: refused (SSO_RULE_REQUIRED) while no rule could let the
 * data centre's operators in; once off, an operator's password sign-in is refused with
 * PASSWORD_SIGN_IN_OFF (into that data centre, and into any other while it works there), its password
 * sessions end at once, the status says so, administrators keep the password (break-glass), single
 * sign-on still works; the last rule cannot be deleted while it is off; the change is in the system log.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRole, call, createTestContext, dataOf, operatorWith, rowsOf, signIn, signInResponse, skipSuite, type TestContext } from './helper.js';
import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, startProvider, type TestProvider } from './oidc-provider-support.js';

describe.skipIf(skipSuite)('single sign-on: password sign-in off per data centre', () => {
  let idp: TestProvider;
  let ctx: TestContext;
  let admin: string;
  let role: number;
  let operator: Awaited<ReturnType<typeof operatorWith>>;
  beforeAll(async () => {
    idp = await startProvider({ dave: { preferred_username: 'dave.sso', groups: ['staff'] } });
    ctx = await createTestContext({
      OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_REDIRECT_URI: REDIRECT_URI,
      OIDC_SCOPES: 'openid profile email groups',
    }, 0);
    admin = await signIn(ctx.app);
    role = await addRole(ctx.app, admin, 'pw-off-viewer', ['LOOK_INFO']);
    operator = await operatorWith(ctx.app, admin, 'pw-operator', ['LOOK_INFO']);
  });
  afterAll(async () => {
    await ctx?.close();
    await idp?.close();
  });

  const setPasswordSignIn = (enabled: unknown, tenantId = 100) =>
    call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/passwordSignIn', payload: { enabled }, tenantId });
  const status = async (tenantId: number) => dataOf(await ctx.app.inject({ method: 'GET', url: '/oauth/sso', headers: { tenantId: String(tenantId) } }));

  it('refuses to turn it off while no rule of the data centre could let its operators in, and bad input', async () => {
    const refused = await setPasswordSignIn(false);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('SSO_RULE_REQUIRED');
    const bad = await setPasswordSignIn('no');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((error: { field: string }) => error.field)).toEqual(['body.enabled']);
    expect((await status(100)).passwordSignIn).toBe(true);
  });

  it('turns it off: operators are refused and signed out, administrators and single sign-on go on', async () => {
    const rule = dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule', payload: { claim: 'groups', value: 'staff', roleIds: [role] } }));
    expect(dataOf(await setPasswordSignIn(false))).toEqual({ passwordSignIn: false });
    expect(await status(100)).toMatchObject({ enabled: true, passwordSignIn: false });
    expect((await status(101)).passwordSignIn).toBe(true);

    const ended = await call(ctx.app, operator.token, { method: 'GET', url: '/oauth/userInfo' });
    expect(ended.json()).toMatchObject({ code: 'TOKEN_EXPIRED', message: expect.stringContaining('停用密码登录') });
    for (const tenantId of [100, 101]) {
      const response = await signInResponse(ctx.app, 'pw-operator', operator.password, {}, tenantId);
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('PASSWORD_SIGN_IN_OFF');
    }
    const history = await rowsOf<{ result: string }>(ctx.database.system.execute(
      sql`select result from sign_in_attempts where account_id = ${operator.id} order by id desc limit 1`));
    expect(history).toEqual([{ result: 'PASSWORD_SIGN_IN_OFF' }]);
    // A wrong password is still just a wrong password.
    expect((await signInResponse(ctx.app, 'pw-operator', 'wrong-password-1')).json().code).toBe('INVALID_CREDENTIALS');

    expect(await signIn(ctx.app)).toMatch(/\S{20,}/); // break-glass: platform administrators
    const { url, transaction } = dataOf(await ctx.app.inject({ method: 'POST', url: '/oauth/sso/start', headers: { tenantId: '100' } }));
    const sso = await ctx.app.inject({ method: 'POST', url: '/oauth/sso/callback', payload: { transaction, callback: await idp.signInAt(url, 'dave') } });
    expect(dataOf(sso).access_token).toMatch(/\S{20,}/);

    const logged = await rowsOf<{ result: string }>(ctx.database.system.execute(
      sql`select result from audit_log where action = 'POST /iot/v1/sso/passwordSignIn' order by id`));
    expect(logged.map((row) => row.result)).toEqual(['SSO_RULE_REQUIRED', 'VALIDATION_FAILED', 'success']);

    // The last rule stays while password sign-in is off.
    const kept = await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule/delete', payload: { id: rule.id } });
    expect(kept.json().code).toBe('SSO_RULE_REQUIRED');
    expect(dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/sso/rule/list' }))).toHaveLength(1);
  });

  it('turns it on again: the password works again and the rule can go', async () => {
    expect(dataOf(await setPasswordSignIn(true))).toEqual({ passwordSignIn: true });
    expect((await signInResponse(ctx.app, 'pw-operator', operator.password)).statusCode).toBe(200);
    const [rule] = dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/sso/rule/list' }));
    expect(dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule/delete', payload: { id: rule.id } }))).toBeNull();
  });
});
