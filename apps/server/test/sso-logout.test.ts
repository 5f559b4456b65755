/**
 * The provider's logout ends the platform's session (OpenID Connect
 * Back-Channel Logout 1.0) on PGlite and PostgreSQL against the real provider of
 * oidc-provider-support.ts: the provider's own sign-out posts a logout token, relayed to
 * POST /oauth/sso/backchannelLogout; the session begun at that provider session stops working, another
 * one (another provider session) keeps working. Tokens that must be refused (wrong audience, issuer
 * or signature, a nonce, no event, neither sub nor sid, too old, replayed) are signed with the
 * provider's own key and answer 400 on body.logout_token.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRole, call, createTestContext, dataOf, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, startProvider, type TestProvider } from './oidc-provider-support.js';

describe.skipIf(skipSuite)('single sign-on: back-channel logout', () => {
  let idp: TestProvider;
  let ctx: TestContext;
  beforeAll(async () => {
    idp = await startProvider({ carol: { preferred_username: 'carol.sso', groups: ['staff'] } });
    ctx = await createTestContext({
      OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_REDIRECT_URI: REDIRECT_URI,
      OIDC_SCOPES: 'openid profile email groups',
    }, 0);
    idp.backchannel = async (form) => (await post(form)).statusCode;
    const admin = await signIn(ctx.app);
    const role = await addRole(ctx.app, admin, 'bcl-viewer', ['LOOK_INFO']);
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/sso/rule', payload: { claim: 'groups', value: 'staff', roleIds: [role] } }));
  });
  afterAll(async () => {
    await ctx?.close();
    await idp?.close();
  });

  const post = (form: string) => ctx.app.inject({
    method: 'POST', url: '/oauth/sso/backchannelLogout', payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const ssoToken = async (login: string) => {
    const { url, transaction } = dataOf(await ctx.app.inject({ method: 'POST', url: '/oauth/sso/start', headers: { tenantId: '100' } }));
    const answer = await ctx.app.inject({ method: 'POST', url: '/oauth/sso/callback', payload: { transaction, callback: await idp.signInAt(url, login) } });
    return dataOf(answer).access_token as string;
  };
  const works = async (token: string) => (await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' })).statusCode === 200;
  const logoutToken = (claims: Record<string, unknown>) => idp.sign({
    iss: idp.issuer, aud: CLIENT_ID, iat: Math.floor(Date.now() / 1000), jti: crypto.randomUUID(),
    events: { 'http://schemas.openid.net/event/backchannel-logout': {} }, ...claims,
  });

  it('ends the session begun at the provider session the provider signs out, not another one', async () => {
    const first = await ssoToken('carol');
    const second = await ssoToken('carol'); // a second browser: another provider session (its own sid)
    expect(await works(first)).toBe(true);
    const [stored] = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from sessions where sso_sid is not null`));
    expect(stored?.n).toBe(2);
    await idp.signOut('carol'); // the jar of the last signInAt: the second browser
    expect(await works(second)).toBe(false);
    const refused = await call(ctx.app, second, { method: 'GET', url: '/oauth/userInfo' });
    expect(refused.json()).toMatchObject({ code: 'TOKEN_EXPIRED', message: expect.stringContaining('单点登录') });
    expect(await works(first)).toBe(true);
    const logged = await rowsOf<{ action: string; result: string }>(ctx.database.system.execute(
      sql`select action, result from audit_log where username = 'carol.sso' and action = 'sign-out'`));
    expect(logged).toEqual([{ action: 'sign-out', result: 'ssoLoggedOut' }]);
  });

  it('ends every session of the person on a logout token naming only the subject', async () => {
    const token = await ssoToken('carol');
    const response = await post(`logout_token=${await logoutToken({ sub: 'carol' })}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await works(token)).toBe(false);
  });

  it('answers 200 for a person it does not know, changing nothing', async () => {
    const token = await ssoToken('carol');
    expect((await post(`logout_token=${await logoutToken({ sub: 'nobody-here' })}`)).statusCode).toBe(200);
    expect(await works(token)).toBe(true);
  });

  it('refuses tokens that are not logout tokens of this provider for this client, with 400 and nothing ended', async () => {
    const token = await ssoToken('carol');
    const event = { 'http://schemas.openid.net/event/backchannel-logout': {} };
    const bad = [
      await logoutToken({ sub: 'carol', aud: 'another-client' }),
      await logoutToken({ sub: 'carol', iss: 'https://evil.example.com' }),
      await logoutToken({ sub: 'carol', nonce: 'n-0S6_WzA2Mj' }),
      await logoutToken({ sub: 'carol', events: { 'http://example.com/other': {} } }),
      await logoutToken({ events: event }),
      await logoutToken({ sub: 'carol', iat: Math.floor(Date.now() / 1000) - 3600 }),
      `${(await logoutToken({ sub: 'carol' })).slice(0, -4)}AAAA`,
      'not-a-jwt',
    ];
    for (const logout of bad) {
      const response = await post(`logout_token=${encodeURIComponent(logout)}`);
      expect(response.statusCode, logout).toBe(400);
      expect(response.json().errors.map((error: { field: string }) => error.field)).toEqual(['body.logout_token']);
    }
    expect((await post('')).statusCode).toBe(400);
    expect(await works(token)).toBe(true);
    // The same token twice: the second is refused.
    const once = await logoutToken({ sub: 'carol' });
    expect((await post(`logout_token=${once}`)).statusCode).toBe(200);
    expect((await post(`logout_token=${once}`)).statusCode).toBe(400);
  });
});
