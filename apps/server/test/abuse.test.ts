/**
 * Abuse of sign-in on PGlite and PostgreSQL: sign-in throttling cannot lock an owner out (per
 * address, per username and address, and per username a captcha plus a growing delay); forwarded
 * headers count only from configured proxies (TRUST_PROXY); security headers and CORS on every answer.
 */
import { createHash, randomUUID } from 'node:crypto';
import { TOKEN_HEADER } from '@iot/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captchas } from '../src/db/schema.js';
import { signInDelayMs } from '../src/modules/oauth/attempts.js';
import { ADMIN_PASSWORD, call, createTestContext, encryptPassword, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';

describe.skipIf(skipSuite)('sign-in throttling and forwarded addresses', () => {
  let ctx: TestContext;
  let proxied: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ SIGN_IN_MAX_FAILURES: 3, SIGN_IN_MAX_FAILURES_PER_ADDRESS: 6 }, 0);
    proxied = await createTestContext({ TRUST_PROXY: ['127.0.0.1'] }, 0);
  });
  afterAll(async () => { await ctx?.close(); await proxied?.close(); });

  const knownCaptcha = async (answer: string) => {
    const id = randomUUID();
    await ctx.database.system.insert(captchas).values({ id, answerHash: createHash('sha256').update(answer).digest('hex'), expiresAt: sql`now() + interval '5 minutes'` });
    return { checkCodeId: id, checkCode: answer };
  };
  const attempt = async (from: string, username: string, password: string, extra: object = {}, headers: Record<string, string> = {}, app = ctx.app) =>
    app.inject({ method: 'POST', url: '/oauth/token', remoteAddress: from, headers, payload: { username, ...(await encryptPassword(app, password)), ...extra } });
  const forget = () => ctx.database.system.execute(sql`update audit_log set created_at = now() - interval '1 hour'`);

  it('grows the delay per username and caps it', () => {
    expect([2, 3, 4, 5, 10, 100].map((n) => signInDelayMs(n, 3))).toEqual([0, 500, 1000, 2000, 4000, 4000]);
  });

  it('never refuses the owner the right password with the right captcha from another address', async () => {
    for (let i = 0; i < 3; i++) expect((await attempt('10.0.0.1', 'admin', `wrong-${i}`)).statusCode).toBe(401);
    expect((await attempt('10.0.0.1', 'admin', ADMIN_PASSWORD)).json().code).toBe('TOO_MANY_ATTEMPTS');
    // Elsewhere the username now needs a captcha (even with AUTH_CAPTCHA=off) and waits, but is not refused.
    expect((await attempt('10.0.0.2', 'admin', ADMIN_PASSWORD)).json().code).toBe('CAPTCHA_INVALID');
    expect((await attempt('10.0.0.2', 'admin', ADMIN_PASSWORD, { checkCodeId: randomUUID(), checkCode: 'abcd' })).json().code).toBe('CAPTCHA_INVALID');
    const started = Date.now();
    const owner = await attempt('10.0.0.2', 'admin', ADMIN_PASSWORD, await knownCaptcha('x7kq'));
    expect(owner.statusCode).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    // Another username from the attacker's address is not affected by the pair limit.
    expect((await attempt('10.0.0.1', 'operator', 'wrong')).statusCode).toBe(401);
    await forget();
  });

  it('refuses an address that fails across many usernames, and only that address', async () => {
    for (let i = 0; i < 6; i++) expect((await attempt('10.0.0.3', `user-${i}`, 'wrong')).statusCode).toBe(401);
    expect((await attempt('10.0.0.3', 'admin', ADMIN_PASSWORD)).json().code).toBe('TOO_MANY_ATTEMPTS');
    expect((await attempt('10.0.0.4', 'admin', ADMIN_PASSWORD)).statusCode).toBe(200);
    await forget();
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the peer', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await attempt('10.0.0.5', 'xff-probe', `wrong-${i}`, {}, { 'x-forwarded-for': `203.0.113.${i}` })).statusCode).toBe(401);
    }
    expect((await attempt('10.0.0.5', 'xff-probe', 'wrong', {}, { 'x-forwarded-for': '203.0.113.99' })).json().code).toBe('TOO_MANY_ATTEMPTS');
    const rows = await rowsOf<{ client_ip: string }>(ctx.database.system.execute(sql`select distinct client_ip from audit_log where username = 'xff-probe'`));
    expect(rows.map((row) => row.client_ip)).toEqual(['10.0.0.5']);
    await forget();

    const token = await signIn(proxied.app);
    await call(proxied.app, token, { method: 'POST', url: '/v1/sysRole/add', payload: { name: 'via-proxy', authorities: [] }, headers: { 'x-forwarded-for': '198.51.100.7' } });
    await proxied.app.inject({ method: 'POST', url: '/v1/sysRole/add', remoteAddress: '10.9.9.9', headers: { [TOKEN_HEADER]: token, 'x-forwarded-for': '198.51.100.8' }, payload: { name: 'not-via-proxy', authorities: [] } });
    const logged = await rowsOf<{ target: string; client_ip: string }>(proxied.database.system.execute(sql`select target, client_ip from audit_log where target like '%via-proxy' order by id`));
    expect(logged).toEqual([{ target: 'via-proxy', client_ip: '198.51.100.7' }, { target: 'not-via-proxy', client_ip: '10.9.9.9' }]);
  });
});
