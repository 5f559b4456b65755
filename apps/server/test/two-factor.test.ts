/**
 * Two-factor sign-in on PGlite and PostgreSQL: enrolment (QR code, secret sealed at rest,
 * 10 recovery codes stored hashed), the two-step sign-in with an authenticator code or a recovery code
 * (each used once, a code's time step never again), wrong codes counted in sign-in throttling, a role
 * requiring two-factor confining an unenrolled account's session to enrolment, and an administrator's
 * audited reset. Codes are computed here from the secret with the same library (@oslojs/otp).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, dataOf, encryptPassword, operatorWith, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { codeAt, enrolWith, stepNow } from './totp-support.js';


describe.skipIf(skipSuite)('two-factor sign-in', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({ SIGN_IN_MAX_FAILURES: 3 }, 0);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const passwordStep = async (username: string, password: string, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({ method: 'POST', url: '/oauth/token', remoteAddress, headers: { tenantId: '100' }, payload: { username, ...(await encryptPassword(ctx.app, password)) } });
  const codeStep = (challenge: string, code: string, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({ method: 'POST', url: '/oauth/token/twoFactor', remoteAddress, payload: { challenge, code } });
  const status = async (token: string) => dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/twoFactor' }));
  const enrol = (token: string) => enrolWith(ctx.app, token);

  it('enrols with a QR code: the secret sealed at rest, 10 recovery codes shown once and stored hashed', async () => {
    const user = await operatorWith(ctx.app, admin, 'tf-enrol', ['LOOK_INFO']);
    expect(await status(user.token)).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    const begun = dataOf(await call(ctx.app, user.token, { method: 'POST', url: '/iot/v1/twoFactor/begin' }));
    expect(begun.uri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}.*period=30/);
    expect(begun.qrCode).toMatch(/^data:image\/png;base64,/);
    const [stored] = await rowsOf<{ sealed_secret: string }>(ctx.database.system.execute(sql`select sealed_secret from two_factors where account_id = ${user.id}`));
    expect(stored?.sealed_secret).toMatch(/^v1\./);
    expect(stored?.sealed_secret).not.toContain(begun.secret);
    const wrong = await call(ctx.app, user.token, { method: 'POST', url: '/iot/v1/twoFactor/confirm', payload: { code: codeAt(begun.secret, stepNow() - 5) } });
    expect([wrong.statusCode, wrong.json().code]).toEqual([401, 'TWO_FACTOR_INVALID']);
    const confirmed = dataOf(await call(ctx.app, user.token, { method: 'POST', url: '/iot/v1/twoFactor/confirm', payload: { code: codeAt(begun.secret, stepNow()) } }));
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.recoveryCodes).size).toBe(10);
    const [hashes] = await rowsOf<{ recovery_code_hashes: string[] }>(ctx.database.system.execute(sql`select recovery_code_hashes from two_factors where account_id = ${user.id}`));
    expect(JSON.stringify(hashes)).not.toContain(confirmed.recoveryCodes[0]);
    expect(await status(user.token)).toEqual({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect((await call(ctx.app, user.token, { method: 'POST', url: '/iot/v1/twoFactor/begin' })).json().code).toBe('TWO_FACTOR_ALREADY_ON');
  });

  it('signs in with a code (once per time step) or a recovery code (once)', async () => {
    const user = await operatorWith(ctx.app, admin, 'tf-signin', ['LOOK_INFO']);
    const { secret, recoveryCodes } = await enrol(user.token);
    const first = (await passwordStep('tf-signin', user.password)).json().data;
    expect(first).toMatchObject({ twoFactorRequired: true, expires_in: 300 });
    expect(first.access_token).toBeUndefined();
    // The enrolment used the current step: the next one (accepted for clock drift) signs in, once.
    const code = codeAt(secret, stepNow() + 1);
    const signedIn = dataOf(await codeStep(first.challenge, code));
    expect((await call(ctx.app, signedIn.access_token, { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(200);
    const again = (await passwordStep('tf-signin', user.password)).json().data;
    const replay = await codeStep(again.challenge, code);
    expect([replay.statusCode, replay.json().code]).toEqual([401, 'TWO_FACTOR_INVALID']);
    const byRecovery = dataOf(await codeStep(again.challenge, recoveryCodes[3] as string));
    expect((await call(ctx.app, byRecovery.access_token, { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(200);
    expect((await codeStep(again.challenge, recoveryCodes[3] as string)).json().code).toBe('TWO_FACTOR_INVALID');
    expect((await status(user.token)).recoveryCodesLeft).toBe(9);
    const forged = `${again.challenge.split('.')[0]}.${'A'.repeat(43)}`;
    expect((await codeStep(forged, recoveryCodes[4] as string)).json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
  });

  it('counts wrong codes in sign-in throttling', async () => {
    const user = await operatorWith(ctx.app, admin, 'tf-throttle', ['LOOK_INFO']);
    const { secret } = await enrol(user.token);
    const from = '198.51.100.28';
    const { challenge } = (await passwordStep('tf-throttle', user.password, from)).json().data;
    for (let i = 0; i < 3; i++) expect((await codeStep(challenge, codeAt(secret, stepNow() - 10 - i), from)).json().code).toBe('TWO_FACTOR_INVALID');
    const refused = await codeStep(challenge, codeAt(secret, stepNow() + 1), from);
    expect([refused.statusCode, refused.json().code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
    expect((await passwordStep('tf-throttle', user.password, from)).json().code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('confines an account whose role requires two-factor to enrolment until it enrols', async () => {
    const user = await operatorWith(ctx.app, admin, 'tf-required', ['LOOK_INFO']);
    expect(dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/update', payload: { id: user.roleId, name: 'tf-required-role', authorities: ['LOOK_INFO'], requiresTwoFactor: true } }))).toBeNull();
    const roles = dataOf(await call(ctx.app, admin, { method: 'GET', url: '/v1/sysRole/queryAll?current=1&size=100' }));
    expect(roles.records.find((role: { id: number }) => role.id === user.roleId)).toMatchObject({ requiresTwoFactor: true });
    const token = await signIn(ctx.app, 'tf-required', user.password);
    const refused = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?pageNum=1&pageSize=5' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'TWO_FACTOR_ENROLMENT_REQUIRED']);
    const english = await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?pageNum=1&pageSize=5', headers: { 'accept-language': 'en-US' } });
    expect(english.json().message).toMatch(/two-factor/);
    expect((await call(ctx.app, token, { method: 'GET', url: '/oauth/userInfo' })).statusCode).toBe(200);
    expect(await status(token)).toMatchObject({ enabled: false, required: true });
    await enrol(token);
    expect((await call(ctx.app, token, { method: 'GET', url: '/iot/v1/lockDevice/list?pageNum=1&pageSize=5' })).statusCode).toBe(200);
  });

  it('lets an account manager reset it, in the system log; the account then signs in with its password alone', async () => {
    const user = await operatorWith(ctx.app, admin, 'tf-reset', ['LOOK_INFO']);
    await enrol(user.token);
    const weak = await operatorWith(ctx.app, admin, 'tf-weak', ['LOOK_INFO']);
    expect((await call(ctx.app, weak.token, { method: 'POST', url: '/iot/v1/twoFactor/reset', payload: { accountId: user.id } })).json().code).toBe('FORBIDDEN');
    expect(dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/twoFactor/reset', payload: { accountId: user.id } }))).toBeNull();
    const logged = await rowsOf<{ result: string; username: string }>(ctx.database.system.execute(
      sql`select result, username from audit_log where action = 'POST /iot/v1/twoFactor/reset' and target = ${String(user.id)} order by id`));
    expect(logged).toEqual([{ result: 'FORBIDDEN', username: 'tf-weak' }, { result: 'success', username: 'admin' }]);
    expect((await passwordStep('tf-reset', user.password)).json().data.access_token).toEqual(expect.any(String));
    expect((await status(user.token)).enabled).toBe(false);
    expect((await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/twoFactor/reset', payload: { accountId: user.id } })).json().code).toBe('NOT_FOUND');
  });
});
