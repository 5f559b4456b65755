/**
 * Self-service two-factor on PGlite and PostgreSQL: an enrolled person turns two-factor
 * off or renews its recovery codes after a step-up (both are dangerous calls: 403 STEP_UP_REQUIRED
 * before), never while a role requires it (403 TWO_FACTOR_REQUIRED), 409 TWO_FACTOR_OFF when it is
 * not on; each in the system log. Codes are computed here from the secret (@oslojs/otp).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, dataOf, encryptPassword, operatorWith, rowsOf, signIn, skipSuite, type TestContext } from './helper.js';
import { codeAt, enrolWith, stepNow } from './totp-support.js';


describe.skipIf(skipSuite)('self-service two-factor', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({}, 0);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const post = (token: string, url: string, payload?: object) => call(ctx.app, token, { method: 'POST', url, ...(payload ? { payload } : {}) });
  const status = async (token: string) => dataOf(await call(ctx.app, token, { method: 'GET', url: '/iot/v1/twoFactor' }));
  const enrol = (token: string) => enrolWith(ctx.app, token);
  const passwordStep = async (username: string, password: string) =>
    dataOf(await ctx.app.inject({ method: 'POST', url: '/oauth/token', headers: { tenantId: '100' }, payload: { username, ...(await encryptPassword(ctx.app, password)) } }));
  const logged = (username: string, path: string) => rowsOf<{ result: string }>(ctx.database.system.execute(
    sql`select result from audit_log where action = ${`POST ${path}`} and username = ${username} order by id`));

  it('turns off after a step-up; the next sign-in asks for the password alone', async () => {
    const user = await operatorWith(ctx.app, admin, 'tfs-off', ['LOOK_INFO']);
    const { secret } = await enrol(user.token);
    const refused = await post(user.token, '/iot/v1/twoFactor/disable');
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'STEP_UP_REQUIRED']);
    expect((await post(user.token, '/iot/v1/twoFactor/stepUp', { code: codeAt(secret, stepNow() + 1) })).statusCode).toBe(200);
    expect(dataOf(await post(user.token, '/iot/v1/twoFactor/disable'))).toBeNull();
    expect(await status(user.token)).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    expect((await passwordStep('tfs-off', user.password)).access_token).toEqual(expect.any(String));
    const again = await post(user.token, '/iot/v1/twoFactor/disable', undefined);
    expect([again.statusCode, again.json().code]).toEqual([409, 'TWO_FACTOR_OFF']);
    expect((await logged('tfs-off', '/iot/v1/twoFactor/disable')).map((row) => row.result)).toEqual(['STEP_UP_REQUIRED', 'success', 'TWO_FACTOR_OFF']);
    // Off, it may enrol again with a new secret.
    expect((await enrol(user.token)).secret).not.toBe(secret);
  });

  it('renews the recovery codes after a step-up: the old ones stop working, the new ones sign in', async () => {
    const user = await operatorWith(ctx.app, admin, 'tfs-codes', ['LOOK_INFO']);
    const { secret, recoveryCodes } = await enrol(user.token);
    expect((await post(user.token, '/iot/v1/twoFactor/recoveryCodes')).json().code).toBe('STEP_UP_REQUIRED');
    expect((await post(user.token, '/iot/v1/twoFactor/stepUp', { code: codeAt(secret, stepNow() + 1) })).statusCode).toBe(200);
    const renewed = dataOf(await post(user.token, '/iot/v1/twoFactor/recoveryCodes')).recoveryCodes as string[];
    expect(renewed).toHaveLength(10);
    expect(renewed.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    expect((await status(user.token)).recoveryCodesLeft).toBe(10);
    const { challenge } = await passwordStep('tfs-codes', user.password);
    const old = await ctx.app.inject({ method: 'POST', url: '/oauth/token/twoFactor', payload: { challenge, code: recoveryCodes[0] } });
    expect([old.statusCode, old.json().code]).toEqual([401, 'TWO_FACTOR_INVALID']);
    const fresh = await ctx.app.inject({ method: 'POST', url: '/oauth/token/twoFactor', payload: { challenge, code: renewed[0] } });
    expect(dataOf(fresh).access_token).toEqual(expect.any(String));
    expect((await logged('tfs-codes', '/iot/v1/twoFactor/recoveryCodes')).map((row) => row.result)).toEqual(['STEP_UP_REQUIRED', 'success']);
  });

  it('cannot turn off what a role requires, and answers 409 to an account that never enrolled', async () => {
    const user = await operatorWith(ctx.app, admin, 'tfs-required', ['LOOK_INFO']);
    const { secret } = await enrol(user.token);
    expect(dataOf(await post(admin, '/v1/sysRole/update', { id: user.roleId, name: 'tfs-required-role', authorities: ['LOOK_INFO'], requiresTwoFactor: true }))).toBeNull();
    expect((await post(user.token, '/iot/v1/twoFactor/stepUp', { code: codeAt(secret, stepNow() + 1) })).statusCode).toBe(200);
    const refused = await call(ctx.app, user.token, { method: 'POST', url: '/iot/v1/twoFactor/disable', headers: { 'accept-language': 'en-US' } });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'TWO_FACTOR_REQUIRED']);
    expect(refused.json().message).toMatch(/cannot be turned off/);
    expect((await status(user.token)).enabled).toBe(true);
    const plain = await operatorWith(ctx.app, admin, 'tfs-plain', ['LOOK_INFO']);
    expect((await post(plain.token, '/iot/v1/twoFactor/recoveryCodes')).json().code).toBe('TWO_FACTOR_OFF');
    expect((await post(plain.token, '/iot/v1/twoFactor/disable')).json().code).toBe('TWO_FACTOR_OFF');
  });
});
