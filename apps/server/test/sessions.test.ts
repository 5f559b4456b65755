/**
 * Sign-ins and sessions on PGlite and PostgreSQL: the sign-in history (each
 * result kind, both sign-in steps, an API key's first use of the day, nothing for unknown usernames),
 * the live sessions with "this session", signing out one session and all others (the revoked token
 * answers TOKEN_EXPIRED saying why, the caller's keeps working, session.revoked per family), and an
 * account manager's reach: LOGIN_ACCOUNT, no escalation, only accounts its data centre sees.
 */
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, call, createTestContext, dataOf, encryptPassword, operatorWith, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';

const codeNow = (secret: string, ahead = 0) => generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000) + ahead), 6);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

describe.skipIf(skipSuite)('sign-ins and sessions', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({ SIGN_IN_MAX_FAILURES: 3, SIGN_IN_MAX_FAILURES_PER_ADDRESS: 100 }, 0);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const passwordStep = async (username: string, password: string, remoteAddress = '127.0.0.1', userAgent = BROWSER) =>
    ctx.app.inject({
      method: 'POST', url: '/oauth/token', remoteAddress, headers: { tenantId: '100', 'user-agent': userAgent },
      payload: { username, ...(await encryptPassword(ctx.app, password)) },
    });
  const history = async (token: string) => dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/signIn/history?size=50' }));
  const sessionsOf = async (token: string) => dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/session/list' })) as
    { id: number; current: boolean; clientIp: string | null; userAgent: string | null; startedAt: string; lastUsedAt: string }[];
  const userInfo = (token: string) => call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' });

  it('records every attempt on an account with its method, result, address and browser, never a password', async () => {
    const user = await operatorWith(ctx.app, admin, 'sh-history', ['LOOK_INFO']);
    expect((await passwordStep('sh-history', 'wrong-password-1', '10.0.0.1')).json().code).toBe('INVALID_CREDENTIALS');
    await passwordStep('sh-history', 'wrong-password-2', '10.0.0.1');
    await passwordStep('sh-history', 'wrong-password-3', '10.0.0.1');
    expect((await passwordStep('sh-history', user.password, '10.0.0.1')).json().code).toBe('TOO_MANY_ATTEMPTS');
    // From elsewhere the username now needs a captcha.
    expect((await passwordStep('sh-history', user.password, '10.0.0.2')).json().code).toBe('CAPTCHA_INVALID');
    await passwordStep('nobody-at-all', 'whatever-password', '10.0.0.3');
    const page = await history(user.token);
    const rows = page.records.map((row: { method: string; result: string; clientIp: string }) => [row.method, row.result, row.clientIp]);
    expect(rows).toEqual([
      ['password', 'CAPTCHA_INVALID', '10.0.0.2'], ['password', 'TOO_MANY_ATTEMPTS', '10.0.0.1'],
      ['password', 'INVALID_CREDENTIALS', '10.0.0.1'], ['password', 'INVALID_CREDENTIALS', '10.0.0.1'], ['password', 'INVALID_CREDENTIALS', '10.0.0.1'],
      ['password', 'success', '127.0.0.1'],
    ]);
    expect(page.records[0].userAgent).toBe(BROWSER);
    expect(page.total).toBe(6);
    const paged = dataOf(await call(ctx.app, user.token, { method: 'GET', url: '/iot/v1/signIn/history?current=2&size=4' }));
    expect(paged.records).toHaveLength(2);
    const stored = JSON.stringify(await rowsOf(ctx.database.system.execute(sql`select * from sign_in_attempts`)));
    expect(stored).not.toContain('wrong-password');
    expect(stored).not.toContain(user.password);
    const unknown = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from sign_in_attempts a join accounts c on c.id = a.account_id where c.username = 'nobody-at-all'`));
    expect(unknown[0]?.n).toBe(0);
  });

  it('records a disabled account and both two-factor steps', async () => {
    const user = await operatorWith(ctx.app, admin, 'sh-twofactor', ['LOOK_INFO']);
    const begun = dataOf(await call(ctx.app, user.token, { method: 'POST', url: '/iot/v1/twoFactor/begin' }));
    dataOf(await call(ctx.app, user.token, { method: 'POST', url: '/iot/v1/twoFactor/confirm', payload: { code: codeNow(begun.secret) } }));
    const { challenge } = (await passwordStep('sh-twofactor', user.password)).json().data;
    const codeStep = (code: string) => ctx.app.inject({ method: 'POST', url: '/oauth/token/twoFactor', headers: { 'user-agent': BROWSER }, payload: { challenge, code } });
    expect((await codeStep('000000')).json().code).toBe('TWO_FACTOR_INVALID');
    const token = dataOf(await codeStep(codeNow(begun.secret, 1))).access_token;
    const disabled = await operatorWith(ctx.app, admin, 'sh-disabled', ['LOOK_INFO']);
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/account/enable', payload: { id: disabled.id, enabled: false } }));
    expect((await passwordStep('sh-disabled', disabled.password)).json().code).toBe('ACCOUNT_DISABLED');
    const rows = (await history(token)).records.slice(0, 3).map((row: { method: string; result: string }) => [row.method, row.result]);
    expect(rows).toEqual([['passwordTwoFactor', 'success'], ['passwordTwoFactor', 'TWO_FACTOR_INVALID'], ['password', 'twoFactorPending']]);
    const [last] = await rowsOf<{ result: string }>(ctx.database.system.execute(sql`select result from sign_in_attempts where account_id = ${disabled.id} order by id desc limit 1`));
    expect(last?.result).toBe('ACCOUNT_DISABLED');
  });

  it("records an API key's first use of the day once", async () => {
    const made = dataOf(await call(ctx.app, admin, {
      method: 'POST', url: '/iot/v1/apiKey', payload: { name: 'pms', authorities: ['LOOK_INFO'], expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    }));
    const useKey = () => ctx.app.inject({ method: 'GET', url: '/iot/v1/lockDevice/list', headers: { authorization: `Bearer ${made.key}`, 'user-agent': 'pms-client/1.0' } });
    expect((await useKey()).statusCode).toBe(200);
    const keyRows = async () => (await history(admin)).records.filter((row: { method: string }) => row.method === 'apiKey');
    await expect.poll(keyRows, { timeout: 20_000 }).toHaveLength(1);
    ctx.app.apiKeys.clear(); // a fresh instance: its first touch of the key finds today's row
    expect((await useKey()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rows = await keyRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ result: 'success', apiKeyName: 'pms', userAgent: 'pms-client/1.0' });
  });

  it('lists live sessions with this one marked, signs out one and all others', async () => {
    const user = await operatorWith(ctx.app, admin, 'sh-sessions', ['LOOK_INFO']);
    const second = (await passwordStep('sh-sessions', user.password, '10.1.0.2', 'Second browser')).json().data.access_token;
    const third = (await passwordStep('sh-sessions', user.password, '10.1.0.3', 'Third browser')).json().data.access_token;
    const listed = await sessionsOf(second);
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current).map((s) => s.userAgent)).toEqual(['Second browser']);
    const events: { accountId: number; family?: string }[] = [];
    const stop = ctx.database.events.on('session.revoked', (payload) => { events.push(payload); });
    try {
      const thirdId = listed.find((s) => s.userAgent === 'Third browser')?.id;
      dataOf(await call(ctx.app, second, { method: 'POST', url: '/iot/v1/session/revoke', payload: { id: thirdId } }));
      const refused = await userInfo(third);
      expect([refused.statusCode, refused.json().code]).toEqual([403, 'TOKEN_EXPIRED']);
      expect(refused.json().message).toContain('其他会话');
      expect((await userInfo(second)).statusCode).toBe(200);
      expect(events).toEqual([{ tenantId: null, accountId: user.id, family: expect.any(String) }]);
      expect((await call(ctx.app, second, { method: 'POST', url: '/iot/v1/session/revoke', payload: { id: thirdId } })).statusCode).toBe(404);
      const others = dataOf(await call(ctx.app, second, { method: 'POST', url: '/iot/v1/session/revokeOthers' }));
      expect(others).toEqual({ revoked: 1 });
      expect((await userInfo(user.token)).json().code).toBe('TOKEN_EXPIRED');
      expect((await sessionsOf(second)).map((s) => [s.current, s.clientIp])).toEqual([[true, '10.1.0.2']]);
    } finally {
      stop();
    }
    // Someone else's session id is not the caller's to end.
    const adminSession = (await sessionsOf(admin))[0]?.id;
    expect((await call(ctx.app, second, { method: 'POST', url: '/iot/v1/session/revoke', payload: { id: adminSession } })).statusCode).toBe(404);
    const [logged] = await rowsOf<{ n: number }>(ctx.database.system.execute(sql`select count(*)::int as n from audit_log where action like 'POST /iot/v1/session/%' and username = 'sh-sessions'`));
    expect(logged?.n).toBe(4); // refused calls too
  });

  it("lets an account manager see and end another account's sessions, within the no-escalation rules and its data centre", async () => {
    const manager = await operatorWith(ctx.app, admin, 'sh-manager', ['LOGIN_ACCOUNT', 'LOOK_INFO']);
    const plain = await operatorWith(ctx.app, admin, 'sh-plain', ['LOOK_INFO']);
    const stronger = await operatorWith(ctx.app, admin, 'sh-stronger', ['LOOK_INFO', 'ROLE_PERMISSIONS']);
    const elsewhere = await addAccount(ctx.app, admin, 'sh-elsewhere', 'sh-elsewhere-password', 101);
    const asManager = (method: 'GET' | 'POST', url: string, payload?: object) => call(ctx.app, manager.token, { method, url, ...(payload ? { payload } : {}) });
    expect((await call(ctx.app, plain.token, { method: 'GET', url: `/iot/v1/session/account/list?accountId=${manager.id}` })).statusCode).toBe(403);
    expect((await call(ctx.app, plain.token, { method: 'GET', url: `/iot/v1/signIn/account/history?accountId=${manager.id}` })).statusCode).toBe(403);
    const sessions = dataOf(await asManager('GET', `/iot/v1/session/account/list?accountId=${plain.id}`));
    expect(sessions).toHaveLength(1);
    expect(sessions[0].current).toBe(false);
    expect(dataOf(await asManager('GET', `/iot/v1/signIn/account/history?accountId=${plain.id}`)).records[0]).toMatchObject({ method: 'password', result: 'success' });
    for (const [accountId, code] of [[stronger.id, 'ESCALATION'], [1, 'ESCALATION'], [elsewhere, 'NOT_FOUND']] as const) {
      expect((await asManager('GET', `/iot/v1/session/account/list?accountId=${accountId}`)).json().code).toBe(code);
      expect((await asManager('GET', `/iot/v1/signIn/account/history?accountId=${accountId}`)).json().code).toBe(code);
      expect((await asManager('POST', '/iot/v1/session/account/revokeAll', { accountId })).json().code).toBe(code);
    }
    expect((await userInfo(stronger.token)).statusCode).toBe(200);
    const again = await signIn(ctx.app, 'sh-plain', plain.password);
    const [one] = dataOf(await asManager('GET', `/iot/v1/session/account/list?accountId=${plain.id}`));
    dataOf(await asManager('POST', '/iot/v1/session/account/revoke', { accountId: plain.id, id: one.id }));
    expect(dataOf(await asManager('POST', '/iot/v1/session/account/revokeAll', { accountId: plain.id }))).toEqual({ revoked: 1 });
    for (const token of [plain.token, again]) {
      const refused = await userInfo(token);
      expect(refused.json().code).toBe('TOKEN_EXPIRED');
      expect(refused.json().message).toContain('管理员');
    }
    expect((await userInfo(manager.token)).statusCode).toBe(200);
  });

  it('keeps the history bounded: the retention run drops old rows', async () => {
    const { pruneSignInHistory } = await import('../src/modules/oauth/history.js');
    await ctx.database.system.execute(sql`update sign_in_attempts set created_at = now() - interval '100 days' where result = 'CAPTCHA_INVALID'`);
    expect(await pruneSignInHistory(ctx.database.system, 90)).toBe(1);
  });
});
