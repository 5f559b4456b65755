/**
 * Step-up for dangerous actions on PGlite and PostgreSQL: an endpoint marked
 * `stepUp` in the contract needs, from an enrolled account's session, a second factor verified at
 * POST /iot/v1/twoFactor/stepUp within the last 5 minutes (403 STEP_UP_REQUIRED otherwise); the code
 * works once, failures are throttled and logged like a sign-in's; unenrolled accounts and API keys are
 * not asked; with DEMO=off every platform administrator must enrol first. The 5 minutes are tested by
 * moving the stored step-up time back, not by waiting.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { call, createTestContext, dataOf, encryptPassword, forgetPrincipals, operatorWith, rowsOf, secondInstance, signIn, skipSuite, type TestContext } from './helper.js';
import { codeAt, enrolWith, stepNow } from './totp-support.js';

const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString();

describe.skipIf(skipSuite)('step-up for dangerous actions', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    ctx = await createTestContext({ SIGN_IN_MAX_FAILURES: 3 }, 0);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const enrol = (token: string) => enrolWith(ctx.app, token);
  /** A role manager's dangerous call: adds a role (answers the response). */
  const addRole = (token: string, name: string, headers: Record<string, string> = {}) =>
    call(ctx.app, token, { method: 'POST', url: '/v1/sysRole/add', payload: { name, description: '', authorities: ['LOOK_INFO'] }, headers });
  const stepUp = (token: string, code: string, remoteAddress = '127.0.0.1') =>
    call(ctx.app, token, { method: 'POST', url: '/iot/v1/twoFactor/stepUp', payload: { code }, remoteAddress });
  const setStepUpAge = (token: string, seconds: number) => ctx.database.system.execute(
    sql`update sessions set step_up_at = now() - make_interval(secs => ${seconds}) where family = (select family from sessions where token_hash = ${createHash('sha256').update(token).digest('hex')})`);

  it('asks an enrolled account for a fresh second factor, once per code, and lets it through for 5 minutes', async () => {
    const user = await operatorWith(ctx.app, admin, 'su-enrolled', ['LOOK_INFO', 'ROLE_PERMISSIONS']);
    const { secret, recoveryCodes } = await enrol(user.token);
    const refused = await addRole(user.token, 'su-role-1', { 'accept-language': 'en-US' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'STEP_UP_REQUIRED']);
    expect(refused.json().message).toMatch(/two-factor/);
    expect((await addRole(user.token, 'su-role-1')).json().message).toMatch(/两步验证/);
    // Reads are never asked.
    expect((await call(ctx.app, user.token, { method: 'GET', url: '/v1/sysRole/queryAll?current=1&size=5' })).statusCode).toBe(200);
    // The enrolment used the current step: the next one is accepted, once.
    const code = codeAt(secret, stepNow() + 1);
    expect(dataOf(await stepUp(user.token, code))).toEqual({ validForMs: 300_000 });
    // The principal cache held the refused session: it is not served stale.
    expect(dataOf(await addRole(user.token, 'su-role-1')).id).toEqual(expect.any(Number));
    const replay = await stepUp(user.token, code);
    expect([replay.statusCode, replay.json().code]).toEqual([401, 'TWO_FACTOR_INVALID']);
    const logged = await rowsOf<{ result: string }>(ctx.database.system.execute(
      sql`select result from audit_log where action = 'step-up' and username = 'su-enrolled' order by id`));
    expect(logged.map((row) => row.result)).toEqual(['success', 'TWO_FACTOR_INVALID']);
    // 4 min 50 s later it still holds; after 5 minutes it is asked again.
    await setStepUpAge(user.token, 290);
    forgetPrincipals(ctx.app);
    expect((await addRole(user.token, 'su-role-2')).statusCode).toBe(200);
    await setStepUpAge(user.token, 301);
    forgetPrincipals(ctx.app);
    expect((await addRole(user.token, 'su-role-3')).json().code).toBe('STEP_UP_REQUIRED');
    // A recovery code steps up too, and is used up.
    expect((await stepUp(user.token, recoveryCodes[0] as string)).statusCode).toBe(200);
    expect((await addRole(user.token, 'su-role-3')).statusCode).toBe(200);
    expect((await stepUp(user.token, recoveryCodes[0] as string)).json().code).toBe('TWO_FACTOR_INVALID');
  });

  it('holds for the sign-in only: another sign-in of the same account steps up itself', async () => {
    const user = await operatorWith(ctx.app, admin, 'su-two-sessions', ['LOOK_INFO', 'ROLE_PERMISSIONS']);
    const { secret, recoveryCodes } = await enrol(user.token);
    expect((await stepUp(user.token, codeAt(secret, stepNow() + 1))).statusCode).toBe(200);
    const other = dataOf(await ctx.app.inject({ method: 'POST', url: '/oauth/token/twoFactor', payload: {
      challenge: dataOf(await ctx.app.inject({ method: 'POST', url: '/oauth/token', payload: { username: 'su-two-sessions', ...(await encryptPassword(ctx.app, user.password)) } })).challenge,
      code: recoveryCodes[1],
    } })).access_token as string;
    expect((await addRole(other, 'su-other-1')).json().code).toBe('STEP_UP_REQUIRED');
    expect((await addRole(user.token, 'su-other-1')).statusCode).toBe(200);
  });

  it('does not ask accounts without two-factor, nor API keys', async () => {
    const user = await operatorWith(ctx.app, admin, 'su-plain', ['LOOK_INFO', 'ROLE_PERMISSIONS', 'LOGIN_ACCOUNT']);
    expect((await addRole(user.token, 'su-plain-made')).statusCode).toBe(200);
    const made = dataOf(await call(ctx.app, user.token, { method: 'POST', url: '/iot/v1/apiKey', payload: { name: 'su-key', authorities: ['LOOK_INFO', 'ROLE_PERMISSIONS'], expiresAt: inAYear() } }));
    // The account enrols later: its key keeps working (a key holds no second factor) and cannot step up.
    await enrol(user.token);
    expect((await addRole(user.token, 'su-plain-made-2')).json().code).toBe('STEP_UP_REQUIRED');
    const byKey = (url: string, payload: object) =>
      ctx.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${made.key}` } });
    expect((await byKey('/v1/sysRole/add', { name: 'su-key-role', description: '', authorities: ['LOOK_INFO'] })).statusCode).toBe(200);
    expect((await byKey('/iot/v1/twoFactor/stepUp', { code: '123456' })).json().code).toBe('FORBIDDEN');
  });

  it('counts wrong step-up codes in sign-in throttling', async () => {
    const user = await operatorWith(ctx.app, admin, 'su-throttle', ['LOOK_INFO', 'ROLE_PERMISSIONS']);
    const { secret } = await enrol(user.token);
    const from = '198.51.100.29';
    for (let i = 0; i < 3; i++) expect((await stepUp(user.token, codeAt(secret, stepNow() - 10 - i), from)).json().code).toBe('TWO_FACTOR_INVALID');
    const refused = await stepUp(user.token, codeAt(secret, stepNow() + 1), from);
    expect([refused.statusCode, refused.json().code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
  });

  it('with DEMO=off, leads every platform administrator through enrolment before anything else', async () => {
    const demoOff = await secondInstance(ctx, { DEMO: false });
    try {
      const token = await signIn(demoOff.app, 'admin');
      const locks = '/iot/v1/lockDevice/list?pageNum=1&pageSize=5';
      const refused = await call(demoOff.app, token, { method: 'GET', url: locks });
      expect([refused.statusCode, refused.json().code]).toEqual([403, 'TWO_FACTOR_ENROLMENT_REQUIRED']);
      expect(dataOf(await call(demoOff.app, token, { method: 'GET', url: '/iot/v1/twoFactor' }))).toMatchObject({ enabled: false, required: true });
      // The demo (DEMO=on) does not require it.
      expect((await call(ctx.app, admin, { method: 'GET', url: locks })).statusCode).toBe(200);
      const begun = dataOf(await call(demoOff.app, token, { method: 'POST', url: '/iot/v1/twoFactor/begin' }));
      dataOf(await call(demoOff.app, token, { method: 'POST', url: '/iot/v1/twoFactor/confirm', payload: { code: codeAt(begun.secret, stepNow()) } }));
      expect((await call(demoOff.app, token, { method: 'GET', url: locks })).statusCode).toBe(200);
    } finally {
      await demoOff.close();
    }
  });
});
