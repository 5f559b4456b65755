/** Sign-in, captcha, throttling, token expiry, rotation and sign-out, on PGlite and PostgreSQL. */
import { createHash, randomUUID } from 'node:crypto';
import { AUTHORITIES, TOKEN_HEADER } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchas, sessions } from '../src/db/schema.js';
import { ADMIN_PASSWORD, call, createTestContext, encryptPassword, forgetPrincipals, signIn, signInResponse, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('sign-in', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ SIGN_IN_MAX_FAILURES: 3 }); });
  afterAll(() => ctx?.close());

  it('signs in with an RSA-OAEP encrypted password and returns the user info', async () => {
    const response = await signInResponse(ctx.app, 'admin', ADMIN_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, code: 'OK', data: { token_type: 'bearer', expires_in: ctx.config.TOKEN_IDLE_S } });
    expect(body.data.access_token.length).toBeGreaterThanOrEqual(43);
    const info = await call(ctx.app, body.data.access_token, { method: 'GET', url: '/oauth/userInfo' });
    expect(info.json().data).toMatchObject({ username: 'admin', type: 0, authorities: [...AUTHORITIES] });
    expect(info.json().data.tenants.map((t: { id: number }) => t.id)).toEqual([100, 101]);
  });

  it('stores only a hash of the token', async () => {
    const token = await signIn(ctx.app);
    const rows = await ctx.database.system.select().from(sessions);
    expect(rows.some((row) => row.tokenHash === createHash('sha256').update(token).digest('hex'))).toBe(true);
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);
  });

  it('refuses a wrong password with 401 in the caller language', async () => {
    const zh = await signInResponse(ctx.app, 'operator', 'wrong-password-1');
    expect(zh.statusCode).toBe(401);
    expect(zh.json()).toMatchObject({ success: false, code: 'INVALID_CREDENTIALS', message: '用户名或密码错误', data: null });
    const encrypted = await encryptPassword(ctx.app, 'nope');
    const en = await ctx.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'accept-language': 'en-US' }, payload: { username: 'nobody', ...encrypted } });
    expect(en.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Wrong username or password' });
  });

  it('answers bad input with 400 naming the fields in both languages', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/oauth/token', payload: { password: 'x' } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    const fields = body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['body.username', 'body.keyId']));
    expect(body.errors[0].message['zh-CN']).toMatch(/[\u4e00-\u9fff]/);
    expect(body.errors[0].message['en-US']).toMatch(/[a-z]/i);
    const plain = await ctx.app.inject({ method: 'POST', url: '/oauth/token', payload: { username: 'admin', password: 'plaintext', keyId: (await encryptPassword(ctx.app, 'x')).keyId } });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().errors[0].field).toBe('body.password');
  });

  it('throttles a username after repeated failures, even with the right password', async () => {
    for (let i = 0; i < 3; i++) expect((await signInResponse(ctx.app, 'admin', `wrong-${i}`)).statusCode).toBe(401);
    const blocked = await signInResponse(ctx.app, 'admin', ADMIN_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('TOO_MANY_ATTEMPTS');
    await ctx.database.system.execute(sql`update audit_log set created_at = now() - interval '1 hour' where username = 'admin'`);
    expect((await signInResponse(ctx.app, 'admin', ADMIN_PASSWORD)).statusCode).toBe(200);
  });

  it('expires an idle token with 403 TOKEN_EXPIRED', async () => {
    const token = await signIn(ctx.app);
    expect((await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(200);
    await ctx.database.system.update(sessions).set({ lastUsedAt: sql`now() - interval '2 hours'` });
    forgetPrincipals(ctx.app); // two hours later
    const expired = await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().code).toBe('TOKEN_EXPIRED');
    const missing = await ctx.app.inject({ method: 'GET', url: '/iot/v1/lockDevice/list' });
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ code: 'TOKEN_EXPIRED', message: '您的token已过期，请重新登录！' });
  });

  it('expires a token past its absolute lifetime', async () => {
    const token = await signIn(ctx.app);
    await ctx.database.system.update(sessions).set({ expiresAt: sql`now() - interval '1 second'` });
    expect((await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' })).json().code).toBe('TOKEN_EXPIRED');
  });

  it('rotates an old token through the zw_paas_token header; the old one works only for a grace period', async () => {
    const token = await signIn(ctx.app);
    await ctx.database.system.update(sessions).set({ createdAt: sql`now() - interval '1 hour'` });
    const first = await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' });
    const fresh = first.headers[TOKEN_HEADER];
    expect(typeof fresh).toBe('string');
    expect(fresh).not.toBe(token);
    expect((await call(ctx.app, String(fresh), { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(200);
    const again = await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' });
    expect(again.statusCode).toBe(200);
    expect(again.headers[TOKEN_HEADER]).toBeUndefined();
    await ctx.database.system.execute(sql`update sessions set rotated_at = now() - interval '10 minutes' where rotated_at is not null`);
    forgetPrincipals(ctx.app); // ten minutes later
    expect((await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(403);
    expect((await call(ctx.app, String(fresh), { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(200);
  });

  it('revokes the token and its rotated family on sign-out', async () => {
    const token = await signIn(ctx.app);
    expect((await call(ctx.app, token, { method: 'POST', url: '/oauth/logout' })).statusCode).toBe(200);
    expect((await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' })).json().code).toBe('TOKEN_EXPIRED');
  });
});

describe.skipIf(skipSuite)('captcha', () => {
  let ctx: TestContext;
  beforeAll(async () => { ctx = await createTestContext({ AUTH_CAPTCHA: true }); });
  afterAll(() => ctx?.close());

  async function knownCaptcha(answer: string) {
    const id = randomUUID();
    await ctx.database.system.insert(captchas).values({ id, answerHash: createHash('sha256').update(answer.toLowerCase()).digest('hex'), expiresAt: sql`now() + interval '5 minutes'` });
    return id;
  }

  it('serves an SVG captcha that is required', async () => {
    const body = (await ctx.app.inject({ method: 'GET', url: '/oauth/checkCode' })).json();
    expect(body.data.required).toBe(true);
    expect(body.data.image).toMatch(/^<svg/);
    expect(body.data.checkCodeId).toMatch(/[0-9a-f-]{36}/);
  });

  it('checks an answer without using it up', async () => {
    const id = await knownCaptcha('AbCd');
    const match = (code: string) => ctx.app.inject({ method: 'POST', url: '/oauth/checkCode/match', payload: { checkCodeId: id, checkCode: code } });
    expect((await match('abcd')).json().data.match).toBe(true);
    expect((await match('zzzz')).json().data.match).toBe(false);
    expect((await match('ABCD')).json().data.match).toBe(true);
  });

  it('refuses a sign-in without the right captcha, accepts it once with it', async () => {
    const none = await signInResponse(ctx.app, 'admin', ADMIN_PASSWORD);
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('CAPTCHA_INVALID');
    const id = await knownCaptcha('x7kq');
    expect((await signInResponse(ctx.app, 'admin', ADMIN_PASSWORD, { checkCodeId: id, checkCode: 'X7KQ' })).statusCode).toBe(200);
    expect((await signInResponse(ctx.app, 'admin', ADMIN_PASSWORD, { checkCodeId: id, checkCode: 'X7KQ' })).json().code).toBe('CAPTCHA_INVALID');
  });
});
