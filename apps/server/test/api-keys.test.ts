/**
 * API keys on PGlite and PostgreSQL: created by an account manager and shown once, listed
 * with last use and state, revoked at once (the key cache forgets it), rotated with a grace for the
 * old key; a key acts in its own data centre with exactly its scope (403 elsewhere), cannot manage
 * keys, sign out or switch data centre; expiry, allowed networks (CIDR), the system log naming the
 * key, and 429 with Retry-After and the IETF RateLimit headers.
 */
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/db/schema.js';
import { call, createTestContext, dataOf, operatorWith, signIn, skipSuite, type TestContext } from './helper.js';

const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString();

describe.skipIf(skipSuite)('API keys', () => {
  let ctx: TestContext;
  let admin: string;
  beforeAll(async () => {
    // Keys of data centre 101 are held to 3 requests a minute (the 429 test); 100 keeps the defaults.
    ctx = await createTestContext({ API_KEY_RATE_BY_TENANT: { 101: { perKey: 3, perAccount: 100 } } }, 2);
    admin = await signIn(ctx.app);
  });
  afterAll(() => ctx?.close());

  const create = async (body: Record<string, unknown>, token = admin, tenantId = 100) =>
    call(ctx.app, token, { method: 'POST', url: '/iot/v1/apiKey', payload: { expiresAt: inAYear(), ...body }, tenantId });
  const withKey = (key: string, options: { method?: 'GET' | 'POST'; url: string; payload?: object; headers?: Record<string, string>; remoteAddress?: string }) =>
    ctx.app.inject({ method: options.method ?? 'GET', url: options.url, payload: options.payload, remoteAddress: options.remoteAddress, headers: { authorization: `Bearer ${key}`, ...options.headers } }) as Promise<LightMyRequestResponse>;
  const list = async (tenantId = 100) => dataOf(await call(ctx.app, admin, { method: 'GET', url: '/iot/v1/apiKey/list', tenantId })) as { id: number; name: string; state: string; lastUsedAt: string | null; prefix: string }[];

  it('creates a key shown once, stored hashed; the key reads with exactly its scope', async () => {
    const made = dataOf(await create({ name: 'pms-reader', authorities: ['LOOK_INFO'] }));
    expect(made.key).toMatch(/^iotk_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.key.startsWith(made.prefix)).toBe(true);
    const stored = (await ctx.database.system.execute(sql`select key_hash from api_keys where id = ${made.id}`)) as unknown as { rows: { key_hash: string }[] };
    expect(stored.rows[0]?.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows)).not.toContain(made.key);
    expect((await withKey(made.key, { url: '/iot/v1/lockDevice/list?pageNum=1&pageSize=5' })).statusCode).toBe(200);
    // Scope enforcement: LOOK_INFO only, so the system log and roles are refused.
    expect((await withKey(made.key, { url: '/iot/v1/SysOperateLog/getLogList?pageNum=1&pageSize=5' })).json().code).toBe('FORBIDDEN');
    expect((await withKey(made.key, { method: 'POST', url: '/v1/sysRole/add', payload: { name: 'nope', description: '', authorities: [] } })).statusCode).toBe(403);
    const row = (await list()).find((key) => key.id === made.id);
    expect(row).toMatchObject({ name: 'pms-reader', state: 'active', prefix: made.prefix });
    expect(JSON.stringify(await list())).not.toContain(made.key);
    await expect.poll(async () => (await list()).find((key) => key.id === made.id)?.lastUsedAt).not.toBeNull();
  });

  it('refuses a scope beyond the creator, a past expiry and a bad network', async () => {
    const operator = await operatorWith(ctx.app, admin, 'key-maker', ['LOGIN_ACCOUNT', 'LOOK_INFO']);
    expect((await create({ name: 'too-much', authorities: ['SYSTEM_LOG'] }, operator.token)).json().code).toBe('ESCALATION');
    expect((await create({ name: 'ok', authorities: ['LOOK_INFO'] }, operator.token)).statusCode).toBe(200);
    const past = await create({ name: 'past', authorities: ['LOOK_INFO'], expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.json().errors[0].field).toBe('body.expiresAt');
    const bad = await create({ name: 'net', authorities: ['LOOK_INFO'], allowedNetworks: ['10.0.0.0/99'] });
    expect([bad.statusCode, bad.json().errors[0].field]).toEqual([400, 'body.allowedNetworks.0']);
  });

  it('cannot manage keys, sign out, read user info or switch data centre', async () => {
    const { key } = dataOf(await create({ name: 'admin-ish', authorities: ['LOGIN_ACCOUNT', 'LOOK_INFO'] }));
    expect((await withKey(key, { method: 'POST', url: '/iot/v1/apiKey', payload: { name: 'x', authorities: ['LOOK_INFO'], expiresAt: inAYear() } })).statusCode).toBe(403);
    expect((await withKey(key, { url: '/iot/v1/apiKey/list' })).statusCode).toBe(403);
    expect((await withKey(key, { url: '/oauth/userInfo' })).statusCode).toBe(403);
    expect((await withKey(key, { method: 'POST', url: '/oauth/logout' })).statusCode).toBe(403);
    expect((await withKey(key, { url: '/iot/v1/lockDevice/list', headers: { tenantId: '101' } })).statusCode).toBe(403);
    expect((await withKey(key, { url: '/iot/v1/lockDevice/list', headers: { tenantId: '100' } })).statusCode).toBe(200);
    expect((await withKey(`${key.slice(0, -1)}x`, { url: '/iot/v1/lockDevice/list' })).json().code).toBe('TOKEN_EXPIRED');
  });

  it('is confined to its data centre: another one neither lists nor revokes it', async () => {
    const made = dataOf(await create({ name: 'only-100', authorities: ['LOOK_INFO'] }));
    expect((await list(101)).map((key) => key.id)).not.toContain(made.id);
    expect((await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/apiKey/revoke', payload: { id: made.id }, tenantId: 101 })).statusCode).toBe(404);
    expect((await withKey(made.key, { url: '/iot/v1/lockDevice/list' })).statusCode).toBe(200);
  });

  it('revocation takes effect at once, even with the key cached', async () => {
    const made = dataOf(await create({ name: 'short-lived', authorities: ['LOOK_INFO'] }));
    expect((await withKey(made.key, { url: '/iot/v1/lockDevice/list' })).statusCode).toBe(200);
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/apiKey/revoke', payload: { id: made.id } }));
    expect((await withKey(made.key, { url: '/iot/v1/lockDevice/list' })).json().code).toBe('TOKEN_EXPIRED');
    expect((await list()).find((key) => key.id === made.id)?.state).toBe('revoked');
  });

  it('rotates: the new key works, the old one during its grace only', async () => {
    const made = dataOf(await create({ name: 'rotating', authorities: ['LOOK_INFO'] }));
    const rotated = dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/apiKey/rotate', payload: { id: made.id } }));
    expect(rotated.key).not.toBe(made.key);
    expect(Date.parse(rotated.previousValidUntil) - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect((await withKey(made.key, { url: '/iot/v1/lockDevice/list' })).statusCode).toBe(200);
    expect((await withKey(rotated.key, { url: '/iot/v1/lockDevice/list' })).statusCode).toBe(200);
    const again = dataOf(await call(ctx.app, admin, { method: 'POST', url: '/iot/v1/apiKey/rotate', payload: { id: made.id, graceS: 0 } }));
    expect((await withKey(rotated.key, { url: '/iot/v1/lockDevice/list' })).statusCode).toBe(403);
    expect((await withKey(made.key, { url: '/iot/v1/lockDevice/list' })).statusCode).toBe(403);
    expect((await withKey(again.key, { url: '/iot/v1/lockDevice/list' })).statusCode).toBe(200);
  });

  it('stops at its expiry', async () => {
    const made = dataOf(await create({ name: 'expiring', authorities: ['LOOK_INFO'] }));
    await ctx.database.system.execute(sql`update api_keys set expires_at = now() - interval '1 second' where id = ${made.id}`);
    ctx.app.apiKeys.clear(); // the row was changed behind the module's back
    expect((await withKey(made.key, { url: '/iot/v1/lockDevice/list' })).statusCode).toBe(403);
    expect((await list()).find((key) => key.id === made.id)?.state).toBe('expired');
  });

  it('works only from its allowed networks', async () => {
    const { key } = dataOf(await create({ name: 'office', authorities: ['LOOK_INFO'], allowedNetworks: ['203.0.113.0/24', '2001:db8::/32'] }));
    expect((await withKey(key, { url: '/iot/v1/lockDevice/list', remoteAddress: '203.0.113.7' })).statusCode).toBe(200);
    expect((await withKey(key, { url: '/iot/v1/lockDevice/list', remoteAddress: '2001:db8::5' })).statusCode).toBe(200);
    const outside = await withKey(key, { url: '/iot/v1/lockDevice/list', remoteAddress: '198.51.100.1' });
    expect([outside.statusCode, outside.json().code]).toEqual([403, 'FORBIDDEN']);
  });

  it('writes the system log as the key, and loses its authorities with its creator', async () => {
    const operator = await operatorWith(ctx.app, admin, 'key-owner', ['LOGIN_ACCOUNT', 'ROLE_PERMISSIONS']);
    const { id, key } = dataOf(await create({ name: 'role-bot', authorities: ['ROLE_PERMISSIONS'] }, operator.token));
    dataOf(await withKey(key, { method: 'POST', url: '/v1/sysRole/add', payload: { name: 'made-by-key', description: '', authorities: [] } }));
    const [row] = await ctx.database.system.select().from(auditLog).where(eq(auditLog.target, 'made-by-key'));
    expect(row).toMatchObject({ username: 'key-owner · API key role-bot', accountId: operator.id, result: 'success', detail: { apiKeyId: id } });
    // The creator loses the authority: the key does too, at once (roles changed -> events).
    dataOf(await call(ctx.app, admin, { method: 'POST', url: '/v1/sysRole/update', payload: { id: operator.roleId, name: 'key-owner-role', description: '', authorities: ['LOGIN_ACCOUNT'] } }));
    expect((await withKey(key, { method: 'POST', url: '/v1/sysRole/add', payload: { name: 'made-by-key-2', description: '', authorities: [] } })).statusCode).toBe(403);
  });

  it('answers 429 with Retry-After and the RateLimit headers over its limit', async () => {
    const { key } = dataOf(await create({ name: 'busy', authorities: ['LOOK_INFO'] }, admin, 101));
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await withKey(key, { url: '/iot/v1/lockDevice/list' }));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers[0]?.headers['ratelimit-policy']).toBe('"key";q=3;w=60, "account";q=100;w=60');
    expect(answers[0]?.headers.ratelimit).toMatch(/^"key";r=2;t=\d+$/);
    const limited = answers[3];
    expect(limited?.json().code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited?.headers.ratelimit).toMatch(/^"key";r=0;t=\d+$/);
  });
});
